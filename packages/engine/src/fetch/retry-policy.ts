import { errorCode, requestDeadlineCode } from './errors.js';

/**
 * The one retry policy of a scan (docs/decisions.md, issue 19):
 *
 * - A URL gets at most 1 + `retries` requests (HEAD, GET and retries together; each redirect hop
 *   adds its own first request). The GET after a HEAD the server rejected is taken from the same
 *   budget, and is allowed even when the budget is spent (it asks another question, not the same
 *   one again).
 * - GET after HEAD only when the HEAD answer says HEAD is the problem: 400, 403, 404, 405, 406
 *   or 501, or a bot challenge (see `rejectsHead`). Never after a network error.
 * - Retried: dropped connections, answers that are not HTTP, timeouts (once: a server that did
 *   not answer within the request timeout, or not finish within the request deadline, twice is
 *   not asked a third time; the two count together), 500/502/503/504 and
 *   429. A retry after a failed HEAD is a GET: a server that breaks on HEAD only is then found
 *   working at no extra request.
 * - Not retried: DNS failures, refused connections, certificate errors (asking again changes
 *   nothing), and a Retry-After longer than maxRetryAfterMs (reported at once).
 * - Waits: exponential backoff with jitter, at most `maxBackoffMs`, or the answer's Retry-After.
 *   While a URL waits it holds no thread and no host slot (`RetryPause`), so the crawl goes on.
 */
export interface RetryPause {
  /** The URL starts waiting: its thread and host slot are free for other work. */
  begin(): void;
  /** The wait is over: the URL goes on at once. */
  end(): void;
}

/** Retried with the URL's own budget (429 is the host's: see HttpClient and host-pacing.ts). */
export const retriableStatuses: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** Statuses a server answers to HEAD when it is HEAD it does not handle; GET may well work. */
const headRejections: ReadonlySet<number> = new Set([400, 403, 404, 405, 406, 501]);

const timeoutCodes = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
  requestDeadlineCode,
]);
const droppedCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The longest backoff between two attempts, whatever the number of retries. */
export const maxBackoffMs = 8_000;

/**
 * Retries after a host's 429 (or 503 with Retry-After) a URL may make, besides its patience in
 * time: the waits are the host's, so they do not spend the URL's `retries`.
 */
export const maxRateLimitRetries = 5;

/** What one URL may still spend on retries and GET fallbacks. */
export class AttemptBudget {
  private spent = 0;
  private timedOut = false;
  private rateLimitRetries = 0;
  private waitedForHostMs = 0;

  constructor(
    private readonly extra: number,
    readonly pause?: RetryPause,
  ) {}

  /** Retries and fallbacks made so far (the backoff grows with them). */
  get retriesMade(): number {
    return this.spent;
  }

  /** Takes one more request from the budget; false when it is spent. */
  take(): boolean {
    if (this.spent >= this.extra) return false;
    this.spent++;
    return true;
  }

  /** One more retry after a rate limit; false past maxRateLimitRetries. */
  takeRateLimitRetry(): boolean {
    if (this.rateLimitRetries >= maxRateLimitRetries) return false;
    this.rateLimitRetries++;
    return true;
  }

  /** Rate-limit retries made so far (their backoff grows with them). */
  get rateLimitRetriesMade(): number {
    return this.rateLimitRetries;
  }

  /**
   * Whether the URL may wait `milliseconds` more for its host's pause: all its waits together
   * stay within `patienceMs` (maxRetryAfterMs). Counts the wait when it may.
   */
  waitForHost(milliseconds: number, patienceMs: number): boolean {
    if (this.waitedForHostMs + milliseconds > patienceMs) return false;
    this.waitedForHostMs += milliseconds;
    return true;
  }

  /** Whether a request that failed with `error` is worth another (and takes it from the budget). */
  retryAfterError(error: unknown): boolean {
    const kind = failureKind(error);
    if (kind === 'final') return false;
    if (kind === 'timeout') {
      if (this.timedOut) return false;
      this.timedOut = true;
    }
    return this.take();
  }
}

/** Whether a HEAD answer with this status says the server does not handle HEAD. */
export function rejectsHead(statusCode: number | undefined): boolean {
  return statusCode !== undefined && headRejections.has(statusCode);
}

/**
 * Timeouts, dropped connections, and answers that are not HTTP at all: those come from a
 * connection a server broke (e.g. the stray body of an earlier HEAD answer), and undici gives
 * its HTTPParserError no code, so it is known by its name. Everything else is final.
 */
function failureKind(error: unknown): 'timeout' | 'dropped' | 'final' {
  if (error instanceof Error && error.name === 'HTTPParserError') return 'dropped';
  const code = errorCode(error) ?? '';
  if (timeoutCodes.has(code)) return 'timeout';
  return droppedCodes.has(code) ? 'dropped' : 'final';
}

/** Exponential backoff with jitter (base × 2^retry, ±50 %), capped at maxBackoffMs. */
export function backoffMs(baseMs: number, retry: number, random = Math.random()): number {
  const base = Math.min(baseMs * 2 ** retry, maxBackoffMs / 1.5);
  return base / 2 + random * base;
}
