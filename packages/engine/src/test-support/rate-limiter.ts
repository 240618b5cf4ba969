import type { Socket } from 'node:net';
import type { RouteResponse } from './test-site.js';

export interface RateLimiterOptions {
  /** Requests answered in one window; the rest get 429. */
  limit: number;
  windowMs: number;
  /** How Retry-After is written: delay-seconds or an HTTP date. */
  retryAfter: 'seconds' | 'date';
  /** A fixed Retry-After in seconds instead of the window's end (a host asking for an hour). */
  fixedSeconds?: number;
}

export interface RateLimiter {
  /** Answers every path: 200 within the limit, 429 with Retry-After past it. */
  route: RouteResponse;
  /** Every request the host received (every method). */
  readonly requests: number;
  /** Requests answered 429. */
  readonly refused: number;
  /**
   * Requests that arrived inside a window the host had announced (a Retry-After still running)
   * when the client must have read the announcement: on the connection that carried it, or
   * later than `inFlightGraceMs` after it (before that, a request on another connection may have
   * been sent before the 429 reached the client).
   */
  readonly insideAnnouncedWindow: number;
}

/** Requests sent before the client could read an announcement arrive within this. */
const inFlightGraceMs = 1_000;

/**
 * A host that allows `limit` requests per window and counts every request, as a code-hosting
 * site's rate limiter does. Past the limit it answers 429 with Retry-After (the window's end,
 * rounded up to whole seconds) and records any request that arrives inside a window it announced.
 */
export function rateLimiter(options: RateLimiterOptions): RateLimiter {
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;
  let announcedUntil = Number.NEGATIVE_INFINITY;
  let announcedAt = 0;
  const announcedOn = new WeakSet<Socket>();
  const counts = { requests: 0, refused: 0, insideAnnouncedWindow: 0 };

  const route: RouteResponse = {
    handler: (request, response) => {
      const now = Date.now();
      counts.requests++;
      const socket = request.socket;
      if (now < announcedUntil && (announcedOn.has(socket) || now - announcedAt > inFlightGraceMs))
        counts.insideAnnouncedWindow++;
      if (now >= windowStart + options.windowMs) {
        windowStart = now;
        used = 0;
      }
      used++;
      if (used <= options.limit) {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Repository</title>');
        return;
      }
      const seconds =
        options.fixedSeconds ?? Math.ceil((windowStart + options.windowMs - now) / 1000);
      const until =
        options.retryAfter === 'date'
          ? Math.ceil((now + seconds * 1000) / 1000) * 1000
          : now + seconds * 1000;
      if (now >= announcedUntil) announcedAt = now;
      announcedUntil = Math.max(announcedUntil, until);
      announcedOn.add(socket);
      counts.refused++;
      const value = options.retryAfter === 'date' ? new Date(until).toUTCString() : String(seconds);
      response
        .writeHead(429, { 'content-type': 'text/plain', 'retry-after': value })
        .end('Too many requests');
    },
  };
  return {
    route,
    get requests() {
      return counts.requests;
    },
    get refused() {
      return counts.refused;
    },
    get insideAnnouncedWindow() {
      return counts.insideAnnouncedWindow;
    },
  };
}
