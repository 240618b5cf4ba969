import { rootCertificates } from 'node:tls';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { LookupFunction } from 'node:net';
import type { RedirectHop } from '../events.js';
import { assertLiteralAllowed, guardLookup, type AddressPolicy } from './address-policy.js';
import { ScanStoppedError, errorCode } from './errors.js';

/** One HTTP answer, body not yet read. */
export interface HttpResponse {
  url: string;
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** The answer at the end of a redirect chain, or why the chain could not be followed. */
export type FollowResult =
  | { ok: true; response: HttpResponse; redirects: RedirectHop[] }
  | {
      ok: false;
      redirects: RedirectHop[];
      problem: 'loop' | 'too-many' | 'no-location' | 'bad-location';
      statusCode: number;
    };

export interface HttpClientConfig {
  userAgent: string;
  requestTimeoutMs: number;
  retries: number;
  retryBaseDelayMs: number;
  maxRetryAfterMs: number;
  maxRedirects: number;
  connections: number;
  verifyCertificates: boolean;
  lookup?: LookupFunction | undefined;
  addressPolicy?: AddressPolicy | undefined;
  ca?: string | string[] | undefined;
  signal: AbortSignal;
}

const retriableStatuses = new Set([429, 500, 502, 503, 504]);
const retriableErrors = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * HTTP for one scan: keep-alive pools per origin (one undici Agent), timeouts, retries with
 * backoff, Retry-After, and redirects followed by hand so every hop is recorded.
 */
export class HttpClient {
  private readonly agent: Agent;
  /** The same for every request (undici reads them, never changes them). */
  private readonly headers: Readonly<Record<string, string>>;

  constructor(private readonly config: HttpClientConfig) {
    const extraCa = config.ca === undefined ? [] : [config.ca].flat();
    const lookup = guardLookup(config.addressPolicy, config.lookup);
    this.headers = Object.freeze({
      'user-agent': config.userAgent,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-encoding': 'gzip, deflate, br',
    });
    this.agent = new Agent({
      connections: config.connections,
      pipelining: 1,
      allowH2: false,
      keepAliveTimeout: 4_000,
      headersTimeout: config.requestTimeoutMs,
      bodyTimeout: config.requestTimeoutMs,
      connect: {
        timeout: config.requestTimeoutMs,
        rejectUnauthorized: config.verifyCertificates,
        ...(extraCa.length > 0 ? { ca: [...rootCertificates, ...extraCa] } : {}),
        ...(lookup ? { lookup } : {}),
      },
    });
    // Stopping the scan destroys the pool, which ends every request under way. (A signal on each
    // request did the same at the cost of an abort listener added and removed per request, on a
    // signal that 50 requests share.)
    const stop = () => void this.agent.destroy().catch(() => undefined);
    if (config.signal.aborted) stop();
    else config.signal.addEventListener('abort', stop, { once: true });
  }

  /** Follows redirects from `url`; each hop is retried on its own. */
  async follow(url: string, method: 'GET' | 'HEAD'): Promise<FollowResult> {
    const redirects: RedirectHop[] = [];
    let current = url;
    let currentMethod = method;
    for (;;) {
      const response = await this.sendWithRetry(current, currentMethod);
      if (!redirectStatuses.has(response.statusCode)) return { ok: true, response, redirects };
      discard(response.body);
      redirects.push({ url: current, statusCode: response.statusCode });
      const next = nextLocation(current, response.headers.location);
      const statusCode = response.statusCode;
      if (next === undefined) return { ok: false, redirects, problem: 'no-location', statusCode };
      if (next === null) return { ok: false, redirects, problem: 'bad-location', statusCode };
      // Every address visited is a hop by now; a chain is at most maxRedirects long, so a scan
      // of it replaces a Set that was made for every request.
      if (redirects.some((hop) => hop.url === next))
        return { ok: false, redirects, problem: 'loop', statusCode };
      if (redirects.length > this.config.maxRedirects) {
        return { ok: false, redirects, problem: 'too-many', statusCode };
      }
      current = next;
      if (statusCode === 303 && currentMethod !== 'HEAD') currentMethod = 'GET';
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }

  /** One request, retried for timeouts, dropped connections, 5xx and 429 (Retry-After honoured). */
  private async sendWithRetry(url: string, method: 'GET' | 'HEAD'): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.config.retries;
      let response: HttpResponse;
      try {
        response = await this.send(url, method);
      } catch (error) {
        if (this.config.signal.aborted) throw new ScanStoppedError();
        if (!canRetry || !isRetriable(error)) throw error;
        await this.sleep(this.backoff(attempt));
        continue;
      }
      if (!canRetry || !retriableStatuses.has(response.statusCode)) return response;
      const wait = this.retryDelay(response, attempt);
      if (wait === undefined) return response;
      discard(response.body);
      await this.sleep(wait);
    }
  }

  private async send(url: string, method: 'GET' | 'HEAD'): Promise<HttpResponse> {
    assertLiteralAllowed(url, this.config.addressPolicy);
    const response = await request(url, {
      method,
      dispatcher: this.agent,
      // undici closes a connection after each HEAD by default, in case the server sends a body it
      // should not: one new connection per checked link. We keep it when the server says
      // keep-alive; a stray body then breaks the next answer on that connection, which is
      // retried on a fresh one (see isRetriable).
      ...(method === 'HEAD' ? { reset: false } : {}),
      headers: this.headers,
    });
    return { url, statusCode: response.statusCode, headers: response.headers, body: response.body };
  }

  /** How long to wait before retrying this answer; undefined when it should not be retried. */
  private retryDelay(response: HttpResponse, attempt: number): number | undefined {
    const retryAfter = parseRetryAfter(response.headers['retry-after']);
    if (retryAfter !== undefined) {
      return retryAfter <= this.config.maxRetryAfterMs ? retryAfter : undefined;
    }
    return this.backoff(attempt);
  }

  private backoff(attempt: number): number {
    const base = this.config.retryBaseDelayMs * 2 ** attempt;
    return base / 2 + Math.random() * base;
  }

  private sleep(milliseconds: number): Promise<void> {
    const signal = this.config.signal;
    if (signal.aborted) return Promise.reject(new ScanStoppedError());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(new ScanStoppedError());
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, milliseconds);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * Timeouts and dropped connections, and answers that are not HTTP at all: those come from a
 * connection a server broke (e.g. the stray body of an earlier HEAD answer), and undici gives
 * its HTTPParserError no code, so it is known by its name.
 */
function isRetriable(error: unknown): boolean {
  if (error instanceof Error && error.name === 'HTTPParserError') return true;
  return retriableErrors.has(errorCode(error) ?? '');
}

/** Stops reading a body; undici reports that as an error we expect and ignore. */
export function closeBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads and drops a body we do not need, so its connection goes back to the pool. */
export function discard(body: Readable): void {
  // undici's dump() reads a small body to the end (the connection is reused) and destroys a
  // large one (a 2 MB file is not worth downloading just to see that it exists).
  const dumpable = body as Readable & { dump?: (options: { limit: number }) => Promise<void> };
  body.on('error', () => undefined);
  if (dumpable.dump) dumpable.dump({ limit: 64 * 1024 }).catch(() => undefined);
  else body.destroy();
}

/** The absolute next URL of a redirect; undefined without Location, null when it is not a URL. */
function nextLocation(
  current: string,
  location: string | string[] | undefined,
): string | null | undefined {
  const value = Array.isArray(location) ? location[0] : location;
  if (value === undefined || value.trim() === '') return undefined;
  try {
    const next = new URL(value.trim(), current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return null;
    next.hash = '';
    return next.href;
  } catch {
    return null;
  }
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
