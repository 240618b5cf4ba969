import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  HeavyReadAbandoned,
  HeavyReadRefused,
  MAX_WAITING_PER_READER,
  type HeavyReadGate,
  type HeavyReadLimits,
  type ReleaseHeavyRead,
} from '../reports/heavy-reads.js';
import { claimPlace, releasePlace, renewPlace } from './limits.repository.js';

/** A held place's lease; renewed every third of it while its read runs. */
const leaseMs = 30_000;
/** How often a waiting read asks again for a place. */
const pollMs = 50;

/**
 * The per-reader limit on heavy reads kept in the database (issue 36), for the scaled mode: a
 * reader holds at most `perUser` places across every api process (places 0 … perUser−1, rows
 * of `heavy_read_places`). A place held by a process that died is free again when its lease
 * runs out. A read that finds none waits, asking again every 50 ms, for up to `queueWaitMs`.
 */
export class SharedHeavyReadGate implements HeavyReadGate {
  /** Reads of a reader waiting in this process (the per-process cap of HeavyReadLimiter). */
  readonly #waiting = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    /** Which limit: report reads and CSV exports are counted apart. */
    private readonly gate: 'report' | 'export',
    private readonly limits: HeavyReadLimits,
  ) {}

  async acquire(reader: string, signal: AbortSignal): Promise<ReleaseHeavyRead> {
    if (signal.aborted) throw new HeavyReadAbandoned();
    const holder = randomUUID();
    if (await this.#claim(reader, holder)) return this.#holding(holder);
    const waiting = this.#waiting.get(reader) ?? 0;
    if (waiting >= MAX_WAITING_PER_READER) throw this.#refused();
    this.#waiting.set(reader, waiting + 1);
    try {
      const deadline = Date.now() + this.limits.queueWaitMs;
      while (Date.now() < deadline) {
        await pause(Math.min(pollMs, deadline - Date.now()), signal);
        if (await this.#claim(reader, holder)) return this.#holding(holder);
      }
      throw this.#refused();
    } finally {
      const left = (this.#waiting.get(reader) ?? 1) - 1;
      if (left > 0) this.#waiting.set(reader, left);
      else this.#waiting.delete(reader);
    }
  }

  /** Tries each of the reader's places; true when `holder` got one. */
  async #claim(reader: string, holder: string): Promise<boolean> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + leaseMs);
    for (let place = 0; place < this.limits.perUser; place++) {
      const claim = { gate: this.gate, reader, place, holder, now, expiresAt };
      if (await claimPlace(this.db, claim)) return true;
    }
    return false;
  }

  /** Renews the lease while the read runs; the release gives the place back once. */
  #holding(holder: string): ReleaseHeavyRead {
    const renewal = setInterval(() => {
      renewPlace(this.db, holder, new Date(Date.now() + leaseMs)).catch(() => undefined);
    }, leaseMs / 3);
    renewal.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      // A failed delete leaves the place to its lease (30 s), never held for good.
      releasePlace(this.db, holder).catch(() => undefined);
    };
  }

  #refused(): HeavyReadRefused {
    return new HeavyReadRefused(Math.max(1, Math.ceil(this.limits.queueWaitMs / 1000)));
  }
}

/** Waits `ms`, or rejects with HeavyReadAbandoned as soon as the client goes away. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // The client may have left while the place was being asked for.
    if (signal.aborted) return reject(new HeavyReadAbandoned());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new HeavyReadAbandoned());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
