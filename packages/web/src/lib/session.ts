import { useSyncExternalStore } from 'react';

/**
 * The signed-in session: the access token kept in localStorage and sent as a Bearer credential
 * (SPEC §4 Session). Components follow it through `useSessionToken`, so signing in or out in one
 * place (or another tab) re-renders every screen that cares.
 */
const storageKey = 'linkaudit.accessToken';
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getSessionToken(): string | null {
  try {
    return localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

export function setSessionToken(token: string): void {
  localStorage.setItem(storageKey, token);
  notify();
}

export function clearSessionToken(): void {
  localStorage.removeItem(storageKey);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKey) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribe, getSessionToken);
}
