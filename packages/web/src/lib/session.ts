import { useSyncExternalStore } from 'react';

/**
 * The signed-in session: the access token sent as a Bearer credential (SPEC §4 Session). SPEC §3
 * Login's "remember me" decides where it is kept: with it, in localStorage (it outlives the
 * browser); without it, in a session cookie, which the browser drops when it closes, and which
 * every tab shares. The server never reads the cookie (the token still travels as Bearer only).
 * Components follow it through `useSessionToken`, so signing in or out re-renders every screen
 * that cares.
 */
const storageKey = 'linkaudit.accessToken';
const cookieName = 'linkaudit_session';
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function sessionCookie(): string | null {
  try {
    for (const part of document.cookie.split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === cookieName) return decodeURIComponent(value.join('=')) || null;
    }
  } catch {
    // No document (tests in Node) or cookies blocked: no session cookie.
  }
  return null;
}

function writeSessionCookie(token: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // No Expires / Max-Age: a session cookie. Deleting sets it in the past.
  document.cookie =
    token === null
      ? `${cookieName}=; Path=/; Max-Age=0; SameSite=Strict${secure}`
      : `${cookieName}=${encodeURIComponent(token)}; Path=/; SameSite=Strict${secure}`;
}

export function getSessionToken(): string | null {
  try {
    return sessionCookie() ?? localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

/** Whether the current token was kept with "remember me" (false when there is none). */
function isPersistent(): boolean {
  try {
    return sessionCookie() === null && localStorage.getItem(storageKey) !== null;
  } catch {
    return false;
  }
}

/**
 * Keeps a new token. `persistent` is the sign-in form's "remember me"; left out (a refreshed
 * token, an external sign-in) the token is kept where the current one is, or persistently when
 * there is none, as before "remember me" was honoured.
 */
export function setSessionToken(token: string, options: { persistent?: boolean } = {}): void {
  const persistent = options.persistent ?? (isPersistent() || getSessionToken() === null);
  if (persistent) {
    writeSessionCookie(null);
    localStorage.setItem(storageKey, token);
  } else {
    localStorage.removeItem(storageKey);
    writeSessionCookie(token);
  }
  notify();
}

export function clearSessionToken(): void {
  localStorage.removeItem(storageKey);
  writeSessionCookie(null);
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
