/**
 * The engine's own sentences for a request that failed, by error code: written by the product,
 * not by the scanned server, so the report shows them in the interface language (the web app's
 * `messages.requestFailure.<code>`). The engine writes them (fetch/errors.ts); they live here so
 * the web app can recognise them without depending on the engine.
 */
export const requestFailureTexts = {
  ENOTFOUND: 'The host name could not be resolved (DNS)',
  EAI_AGAIN: 'The host name could not be resolved (DNS temporarily failed)',
  ECONNREFUSED: 'The server refused the connection',
  ECONNRESET: 'The server closed the connection unexpectedly',
  UND_ERR_SOCKET: 'The server closed the connection unexpectedly',
  UND_ERR_CONNECT_TIMEOUT: 'Connecting to the server timed out',
  UND_ERR_HEADERS_TIMEOUT: 'The server did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'The server stopped sending in the middle of the answer',
  CERT_HAS_EXPIRED: 'The certificate has expired',
  CERT_NOT_YET_VALID: 'The certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'The certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'The certificate chain ends in an untrusted self-signed root',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'The certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'The certificate is not signed by a trusted authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'The certificate does not cover this host name',
} as const satisfies Record<string, string>;

/** The engine's detail for an HTTP error status: the status and Node's name for it. */
export const httpStatusDetailPattern = /^(\d{3}) ([A-Za-z][A-Za-z' -]*)$/;
/** The engine's detail for an answer from bot protection. */
export const botProtectionDetailPattern =
  /^Answered by bot protection \((\d{3})\); open it in a browser to verify$/;

/**
 * The engine's details of links it could not verify (issue 35), written here with the patterns
 * that read them back, so the web app can say them in the interface language.
 */
export const unverifiedDetails = {
  rateLimited: (status: number) =>
    `Rate limited by the host (${status}); open it in a browser to verify`,
  pausedHost: (waitSeconds: number, patienceSeconds: number) =>
    `Rate limited: the host asked to wait ${waitSeconds} s, longer than we wait (${patienceSeconds} s); open it in a browser to verify`,
  hostTooSlow: (budgetSeconds: number) =>
    `Not checked: the host used up its time budget (${budgetSeconds} s); open it in a browser to verify`,
  needsSignIn: (status: number) =>
    `Needs sign-in (${status}); open it in a browser where you are signed in`,
} as const;
export const rateLimitedDetailPattern =
  /^Rate limited by the host \((\d{3})\); open it in a browser to verify$/;
export const pausedHostDetailPattern =
  /^Rate limited: the host asked to wait (\d+) s, longer than we wait \((\d+) s\); open it in a browser to verify$/;
export const hostTooSlowDetailPattern =
  /^Not checked: the host used up its time budget \((\d+) s\); open it in a browser to verify$/;
export const needsSignInDetailPattern =
  /^Needs sign-in \((\d{3})\); open it in a browser where you are signed in$/;

/** A scan that ended because its start page could not be read, with the request's failure. */
export const startPageFailure = (reason: string) =>
  `The start page could not be fetched: ${reason}`;
export const startPageFailurePattern = /^The start page could not be fetched: (.+)$/;
