import type { TFunction } from 'i18next';

/**
 * The browser side of the external sign-in (decisions: Accounts): the provider's redirect comes
 * back with `#access_token=…&state=…` (or `#error=…&state=…`); the state must be the one we were
 * given when this tab started the sign-in, so a link someone else crafted (with their own token)
 * is never believed.
 */
const pendingKey = 'linkaudit.externalSignIn';

/** What this tab remembers while the person is away at the provider. */
interface PendingSignIn {
  state: string;
  /** The provider's display name, for messages about it. */
  provider: string;
  /** Where to go once signed in (same-site path). */
  returnUrl?: string;
}

export function rememberExternalSignIn(pending: {
  state: string | undefined;
  provider: string;
  returnUrl?: string;
}): void {
  if (pending.state) sessionStorage.setItem(pendingKey, JSON.stringify(pending));
}

function pendingSignIn(): PendingSignIn | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(pendingKey) ?? 'null') as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { state, provider, returnUrl } = value as Record<string, unknown>;
    if (typeof state !== 'string' || typeof provider !== 'string') return undefined;
    return { state, provider, returnUrl: typeof returnUrl === 'string' ? returnUrl : undefined };
  } catch {
    return undefined;
  }
}

export type ExternalRedirect =
  | { kind: 'token'; token: string; provider: string; returnUrl?: string }
  /** `provider` only when the answer is this tab's own (its state matched). */
  | { kind: 'error'; error: string; provider?: string }
  | { kind: 'none' };

/** What the redirect's fragment says; reading changes nothing (see `forgetExternalRedirect`). */
export function readExternalRedirect(): ExternalRedirect {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  if (!fragment.has('access_token') && !fragment.has('error')) return { kind: 'none' };
  const pending = pendingSignIn();
  const ours = pending !== undefined && fragment.get('state') === pending.state;
  const error = fragment.get('error');
  if (error) return { kind: 'error', error, provider: ours ? pending.provider : undefined };
  if (!ours) return { kind: 'error', error: 'state' };
  return {
    kind: 'token',
    token: fragment.get('access_token') ?? '',
    provider: pending.provider,
    returnUrl: pending.returnUrl,
  };
}

/** Removes the token from the address bar (and history) and what this tab remembered. */
export function forgetExternalRedirect(): void {
  if (window.location.hash) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  sessionStorage.removeItem(pendingKey);
}

/** Reads the redirect once and forgets it. */
export function takeExternalRedirect(): ExternalRedirect {
  const redirect = readExternalRedirect();
  if (redirect.kind !== 'none') forgetExternalRedirect();
  return redirect;
}

/**
 * Why a redirect failed, for the person: they declined at the provider, the provider failed, or
 * the answer cannot be trusted (expired, or not this tab's).
 */
export function externalFailureText(
  redirect: { error: string; provider?: string },
  t: TFunction,
): string {
  const { error, provider } = redirect;
  if (provider && error === 'access_denied') return t('account.external.declined', { provider });
  if (provider && error === 'server_error') {
    return t('account.external.providerFailed', { provider });
  }
  return t('messages.invalidExternalLogin');
}
