/**
 * Why a link is broken: exactly the labels of SPEC §8, and the one table that maps HTTP statuses
 * and network errors onto them (DESIGN §3).
 */
export const FailureReason = {
  TimeOut: 'Time Out',
  InvalidRemoteName: 'Invalid Remote Name',
  InvalidCertificate: 'Invalid Certificate',
  AuthenticationRequired: 'Authentication Required',
  SourceAttributeMissing: 'Source Attribute Missing',
  NotFound: 'Not Found',
  EngineException: 'Engine Exception',
  InvalidFormat: 'Invalid Format',
  ServiceUnavailable: 'Service Unavailable',
  InternalServerError: 'Internal Server Error',
  BadRequest: 'Bad Request',
} as const;
export type FailureReason = (typeof FailureReason)[keyof typeof FailureReason];

export const failureReasons: readonly FailureReason[] = Object.values(FailureReason);

/** The reason for an HTTP error status (400 and above). */
export function failureReasonForStatus(status: number): FailureReason {
  if (status === 401 || status === 403 || status === 407)
    return FailureReason.AuthenticationRequired;
  if (status === 404 || status === 410) return FailureReason.NotFound;
  if (status === 429 || status === 502 || status === 503 || status === 504) {
    return FailureReason.ServiceUnavailable;
  }
  if (status >= 500) return FailureReason.InternalServerError;
  return FailureReason.BadRequest;
}

const timeoutCodes = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ABORT_ERR_TIMEOUT',
  // The engine's overall deadline per request (connect, headers and body together).
  'ERR_REQUEST_DEADLINE',
]);
// EADDRBLOCKED: the hosted server's SSRF guard refused the address a name resolved to; for the
// user the name is not a valid remote name to scan.
const dnsCodes = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'ENODATA',
  'EADDRBLOCKED',
]);
const certificateCodes = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
]);

/** The reason for a failure below HTTP: DNS, TLS, sockets and timeouts. Unknown codes are ours. */
export function failureReasonForNetworkError(code: string | undefined): FailureReason {
  if (!code) return FailureReason.EngineException;
  if (timeoutCodes.has(code)) return FailureReason.TimeOut;
  if (dnsCodes.has(code)) return FailureReason.InvalidRemoteName;
  if (certificateCodes.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) {
    return FailureReason.InvalidCertificate;
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED' ||
    code === 'EADDRNOTAVAIL'
  ) {
    return FailureReason.ServiceUnavailable;
  }
  if (code === 'ERR_INVALID_URL' || code === 'UND_ERR_INVALID_ARG')
    return FailureReason.InvalidFormat;
  return FailureReason.EngineException;
}
