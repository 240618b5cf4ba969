import type { Readable } from 'node:stream';
import { RequestDeadlineError } from './errors.js';

/** setTimeout's longest delay; a longer deadline is no deadline. */
const longestTimer = 2 ** 31 - 1;

/**
 * The overall time limit of one request: connecting, headers and body together. The idle
 * timeouts (requestTimeoutMs) are reset by every body chunk, so a server trickling its body a
 * byte at a time never trips them; this one is not reset.
 *
 * It costs no AbortSignal per request (undici's signal handling was a tenth of the crawl's CPU):
 * the headers phase is bounded by undici's headers timeout, which counts from the request's
 * dispatch and is not reset by arriving bytes, set to the sooner of the idle timeout and the
 * deadline (`headersTimeoutMs`); the body, by a timer over what is left of the deadline that
 * destroys it with a RequestDeadlineError.
 */
export class RequestDeadline {
  private readonly startedAt = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deadlineMs: number) {}

  private get limited(): boolean {
    return this.deadlineMs > 0 && this.deadlineMs <= longestTimer;
  }

  /** The headers timeout of this request: the idle timeout, or the deadline when sooner. */
  headersTimeoutMs(idleTimeoutMs: number): number {
    return this.limited ? Math.min(idleTimeoutMs, this.deadlineMs) : idleTimeoutMs;
  }

  /** Whether undici's headers timeout of this request was the deadline's. */
  boundsHeaders(idleTimeoutMs: number): boolean {
    return this.limited && this.deadlineMs < idleTimeoutMs;
  }

  /** The error a request past its deadline ends with. */
  error(): RequestDeadlineError {
    return new RequestDeadlineError(this.deadlineMs);
  }

  /** The deadline goes on while the body is read: past it, the body is destroyed. */
  coverBody(body: Readable): void {
    if (!this.limited || body.closed || body.destroyed) return;
    const left = Math.max(0, this.deadlineMs - (performance.now() - this.startedAt));
    this.timer = setTimeout(() => body.destroy(this.error()), left);
    this.timer.unref();
    body.once('close', () => clearTimeout(this.timer));
  }
}
