import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { countHit, deleteEndedWindows } from './limits.repository.js';

interface RouteInfo {
  method?: string;
  url?: string;
}

/** How often a process forgets ended windows (the table holds one row per route and address). */
const sweepEveryMs = 60_000;

/**
 * @fastify/rate-limit's store kept in the database (issue 36): in the scaled mode every api
 * process counts the same requests, so a limit of 10 a minute stays 10 behind a load balancer.
 * The embedded server (one process) keeps the plugin's own in-memory store.
 */
export function databaseRateLimitStore(
  db: Kysely<Database>,
  clock: Clock,
): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  const sweep = async (now: Date) => {
    if (now.getTime() - lastSweep < sweepEveryMs) return;
    lastSweep = now.getTime();
    await deleteEndedWindows(db, now);
  };

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    /** The plugin makes the first store with its options; each route's child gets a prefix. */
    constructor(prefix: unknown = '') {
      this.#prefix = typeof prefix === 'string' ? prefix : '';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock.now();
      sweep(now)
        .then(() => countHit(db, `${this.#prefix}${key}`, now, timeWindow))
        .then(
          ({ hits, windowEndsAt }) =>
            callback(null, {
              current: hits,
              ttl: Math.max(0, windowEndsAt.getTime() - now.getTime()),
            }),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    }

    /** A store per route, so each route counts its own requests (as the plugin's stores do). */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes its merged options with the route under `routeInfo` (its own stores
      // read it there too), whatever its type declaration says.
      const { routeInfo } = routeOptions as unknown as { routeInfo?: RouteInfo };
      return new DatabaseRateLimitStore(`${routeInfo?.method ?? ''} ${routeInfo?.url ?? ''} `);
    }
  }
  return DatabaseRateLimitStore;
}
