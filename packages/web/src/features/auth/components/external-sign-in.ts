/**
 * The browser side of the external sign-in (decisions: Accounts): the provider's redirect comes
 * back with `#access_token=…&state=…` (or `#error=…`); the state must be the one we were given
 * when the sign-in started, so a link someone else crafted is ignored.
 */
const stateKey = 'linkaudit.externalState';

export function rememberExternalState(state: string | undefined): void {
  if (state) sessionStorage.setItem(stateKey, state);
}

export type ExternalRedirect =
  { kind: 'token'; token: string } | { kind: 'error'; error: string } | { kind: 'none' };

/** What the redirect's fragment says; reading changes nothing (see `forgetExternalRedirect`). */
export function readExternalRedirect(): ExternalRedirect {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  if (!fragment.has('access_token') && !fragment.has('error')) return { kind: 'none' };
  const expected = sessionStorage.getItem(stateKey);
  const error = fragment.get('error');
  if (error) return { kind: 'error', error };
  const state = fragment.get('state');
  if (expected && state !== expected) return { kind: 'error', error: 'state' };
  return { kind: 'token', token: fragment.get('access_token') ?? '' };
}

/** Removes the token from the address bar (and history) and the expected state. */
export function forgetExternalRedirect(): void {
  if (window.location.hash) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  sessionStorage.removeItem(stateKey);
}

/** Reads the redirect once and forgets it. */
export function takeExternalRedirect(): ExternalRedirect {
  const redirect = readExternalRedirect();
  if (redirect.kind !== 'none') forgetExternalRedirect();
  return redirect;
}
