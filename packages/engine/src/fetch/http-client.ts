import { rootCertificates } from 'node:tls';
import { unverifiedDetails } from '@linkaudit/core';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { LookupFunction } from 'node:net';
import type { RedirectHop } from '../events.js';
import { assertLiteralAllowed, type AddressPolicy } from './address-policy.js';
import { errorCode, HostRefusedError, ScanStoppedError } from './errors.js';
import { guardedConnector } from './guarded-connector.js';
import type { HostPacing } from './host-pacing.js';
import { RequestDeadline } from './request-deadline.js';
import { AttemptBudget, backoffMs, retriableStatuses, type RetryPause } from './retry-policy.js';

/** One HTTP answer, body not yet read. */
export interface HttpResponse {
  url: string;
  /** The method that got this answer (a retry after a failed HEAD is a GET). */
  method: 'GET' | 'HEAD';
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** A 429/503 whose Retry-After was longer than we wait: the answer stands, not retried. */
  pastPatience?: boolean;
}

/** Answers some addresses without the network (a folder, file-site.ts); undefined for the rest. */
export interface LocalAnswers {
  answer(url: string, method: 'GET' | 'HEAD'): Promise<HttpResponse | undefined>;
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
  /** Connecting, headers and body of one request together (see request-deadline.ts). */
  requestDeadlineMs: number;
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
  /** Pauses, concurrency and time budget per host (shared with the frontier). */
  pacing: HostPacing;
  /** A folder answering for the site's addresses instead of the network (file-site.ts). */
  files?: LocalAnswers | undefined;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * HTTP for one scan: keep-alive pools per origin (one undici Agent), timeouts, retries with
 * backoff and Retry-After as retry-policy.ts says, and redirects followed by hand so every hop is
 * recorded.
 */
export class HttpClient {
  private readonly agent: Agent;
  /** The same for every request (undici reads them, never changes them). */
  private readonly headers: Readonly<Record<string, string>>;

  constructor(private readonly config: HttpClientConfig) {
    const extraCa = config.ca === undefined ? [] : [config.ca].flat();
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
      connect: guardedConnector(
        {
          // (Given as a function, the connector no longer gets the Agent's allowH2.)
          allowH2: false,
          timeout: config.requestTimeoutMs,
          rejectUnauthorized: config.verifyCertificates,
          ...(extraCa.length > 0 ? { ca: [...rootCertificates, ...extraCa] } : {}),
        },
        config.addressPolicy,
        config.lookup,
      ),
    });
    // Stopping the scan destroys the pool, which ends every request under way. (A signal on each
    // request did the same at the cost of an abort listener added and removed per request, on a
    // signal that 50 requests share.)
    const stop = () => void this.agent.destroy().catch(() => undefined);
    if (config.signal.aborted) stop();
    else config.signal.addEventListener('abort', stop, { once: true });
  }

  /**
   * Follows redirects from `url`. Retries of every hop come out of `budget`, the URL's own
   * (a fresh one when none is given: robots.txt, sitemaps).
   */
  async follow(url: string, method: 'GET' | 'HEAD', budget = this.budget()): Promise<FollowResult> {
    const redirects: RedirectHop[] = [];
    let current = url;
    let currentMethod = method;
    for (;;) {
      const response = await this.sendWithRetry(current, currentMethod, budget);
      currentMethod = response.method;
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

  /** A URL's own attempt budget under this scan's number of retries. */
  budget(pause?: RetryPause): AttemptBudget {
    return new AttemptBudget(this.config.retries, pause);
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }

  /**
   * One request, retried for timeouts, dropped connections and 5xx while the budget lasts (a
   * retry after a HEAD is a GET). A 429, or a 503 with Retry-After, pauses the whole host
   * (host-pacing.ts); the URL waits with the others and asks again, within its patience.
   */
  private async sendWithRetry(
    url: string,
    method: 'GET' | 'HEAD',
    budget: AttemptBudget,
  ): Promise<HttpResponse> {
    const { pacing, signal } = this.config;
    const host = hostOf(url);
    let current = method;
    for (;;) {
      // (Awaited only when the host is paused: an await per request would reorder the crawl.)
      if (pacing.admission(host).go !== true) await this.admit(host, budget);
      let response: HttpResponse;
      pacing.started(host);
      try {
        response = await this.send(url, current);
        pacing.finished(host);
      } catch (error) {
        pacing.finished(host);
        if (signal.aborted) throw new ScanStoppedError();
        if (!budget.retryAfterError(error)) throw error;
        await this.rest(this.backoff(budget), budget);
        current = 'GET';
        continue;
      }
      if (this.pausesHost(host, response, budget)) {
        discard(response.body);
        current = 'GET';
        continue;
      }
      if (response.statusCode !== 429) pacing.answered(host);
      if (!retriableStatuses.has(response.statusCode)) return response;
      if (!budget.take()) return response;
      discard(response.body);
      await this.rest(this.backoff(budget), budget);
      current = 'GET';
    }
  }

  /**
   * A 429 (or a 503 with Retry-After) pauses its host for the time it asked (our backoff when it
   * said none). True when this URL will ask again after the pause; false when it is past our
   * patience or its rate-limit retries, and the answer stands.
   */
  private pausesHost(host: string, response: HttpResponse, budget: AttemptBudget): boolean {
    const status = response.statusCode;
    const retryAfter = parseRetryAfter(response.headers['retry-after']);
    if (status !== 429 && !(status === 503 && retryAfter !== undefined)) return false;
    const backoff = backoffMs(this.config.retryBaseDelayMs, budget.rateLimitRetriesMade);
    const wait = retryAfter !== undefined && retryAfter > 0 ? retryAfter : backoff;
    this.config.pacing.pause(host, wait, status === 429);
    if (wait > this.config.maxRetryAfterMs) {
      response.pastPatience = true;
      return false;
    }
    return budget.takeRateLimitRetry();
  }

  /**
   * Waits while the host is paused (holding no thread or host slot), within the URL's patience;
   * a pause past it, or a host over its time budget, sends nothing (HostRefusedError).
   */
  private async admit(host: string, budget: AttemptBudget): Promise<void> {
    const patienceMs = this.config.maxRetryAfterMs;
    for (;;) {
      const admission = this.config.pacing.admission(host);
      if (admission.go === true) return;
      if (admission.go === false) {
        throw new HostRefusedError(
          'host-too-slow',
          hostTooSlowMessage(this.config.pacing.budgetMs),
        );
      }
      if (!budget.waitForHost(admission.waitMs, patienceMs)) {
        throw new HostRefusedError('rate-limited', pausedHostMessage(admission.waitMs, patienceMs));
      }
      await this.rest(admission.waitMs, budget);
    }
  }

  /** Waits before a retry; meanwhile the URL holds nothing the rest of the crawl needs. */
  private async rest(milliseconds: number, budget: AttemptBudget): Promise<void> {
    budget.pause?.begin();
    try {
      await this.sleep(milliseconds);
    } finally {
      budget.pause?.end();
    }
  }

  private async send(url: string, method: 'GET' | 'HEAD'): Promise<HttpResponse> {
    if (this.config.files) {
      const fromDisk = await this.config.files.answer(url, method);
      if (fromDisk) return fromDisk;
    }
    assertLiteralAllowed(url, this.config.addressPolicy);
    const deadline = new RequestDeadline(this.config.requestDeadlineMs);
    const idleTimeoutMs = this.config.requestTimeoutMs;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await this.request(url, method, deadline.headersTimeoutMs(idleTimeoutMs));
    } catch (error) {
      if (isHeadersTimeout(error) && deadline.boundsHeaders(idleTimeoutMs)) throw deadline.error();
      throw error;
    }
    deadline.coverBody(response.body);
    return {
      url,
      method,
      statusCode: response.statusCode,
      headers: response.headers,
      body: response.body,
    };
  }

  private request(url: string, method: 'GET' | 'HEAD', headersTimeout: number) {
    return request(url, {
      method,
      dispatcher: this.agent,
      headersTimeout,
      // undici closes a connection after each HEAD by default, in case the server sends a body it
      // should not: one new connection per checked link. We keep it when the server says
      // keep-alive; a stray body then breaks the next answer on that connection, which is
      // retried on a fresh one (see retry-policy.ts).
      ...(method === 'HEAD' ? { reset: false } : {}),
      headers: this.headers,
    });
  }

  /** The wait before the retry just taken from `budget`. */
  private backoff(budget: AttemptBudget): number {
    return backoffMs(this.config.retryBaseDelayMs, budget.retriesMade - 1);
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

/** The host (with its port) of an absolute http(s) href, without parsing it again. */
export function hostOf(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? url.length : end);
}

function seconds(milliseconds: number): number {
  return Math.ceil(milliseconds / 1000);
}

/** A link of a host paused for longer than we wait. */
export function pausedHostMessage(waitMs: number, patienceMs: number): string {
  return unverifiedDetails.pausedHost(seconds(waitMs), seconds(patienceMs));
}

/** A link of a host past its time budget. */
export function hostTooSlowMessage(budgetMs: number): string {
  return unverifiedDetails.hostTooSlow(seconds(budgetMs));
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

/** undici's error when a request's headers did not all arrive within its headers timeout. */
function isHeadersTimeout(error: unknown): boolean {
  return errorCode(error) === 'UND_ERR_HEADERS_TIMEOUT';
}
