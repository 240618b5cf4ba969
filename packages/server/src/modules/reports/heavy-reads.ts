/**
 * A per-user limit on concurrent heavy reads (report tabs and CSV exports): at most `perUser` run
 * at once for one reader; a further one waits in that reader's queue for up to `queueWaitMs`, and
 * is refused (429) when no place frees in time, so one user's many tabs or scripts cannot hold
 * every database connection while other users wait.
 */
export interface HeavyReadLimits {
  /** Heavy reads one reader may run at once (REPORT_READS_PER_USER). */
  perUser: number;
  /** How long a further read waits for a place before it is refused (REPORT_READ_QUEUE_MS). */
  queueWaitMs: number;
}

/** Reads a reader may have waiting at once; past that, a new one is refused without waiting. */
export const MAX_WAITING_PER_READER = 8;

/** No place freed for the reader in time (or its queue was full): answer 429. */
export class HeavyReadRefused extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too many heavy reads at once');
  }
}

/** The client went away while its read waited for a place: nothing is to be answered. */
export class HeavyReadAbandoned extends Error {
  constructor() {
    super('the client went away while its read waited');
  }
}

/** Gives the place back; calling it again does nothing. */
export type ReleaseHeavyRead = () => void;

/**
 * Where a heavy read gets its place: this process's HeavyReadLimiter (the embedded server), or
 * places kept in the database that every api process shares (limits/shared-heavy-reads.ts).
 */
export interface HeavyReadGate {
  /**
   * A place for one heavy read of `reader`, at once or after waiting. Rejects with
   * HeavyReadRefused after `queueWaitMs`, or with HeavyReadAbandoned as soon as `signal` aborts.
   */
  acquire(reader: string, signal: AbortSignal): Promise<ReleaseHeavyRead>;
}

interface Waiter {
  grant(): void;
}

export class HeavyReadLimiter implements HeavyReadGate {
  readonly #running = new Map<string, number>();
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(private readonly limits: HeavyReadLimits) {}

  /** Heavy reads running now for `reader` (tests and logs). */
  running(reader: string): number {
    return this.#running.get(reader) ?? 0;
  }

  /**
   * A place for one heavy read of `reader`, at once or after waiting in its queue. Rejects with
   * HeavyReadRefused after `queueWaitMs`, or with HeavyReadAbandoned as soon as `signal` aborts.
   */
  acquire(reader: string, signal: AbortSignal): Promise<ReleaseHeavyRead> {
    if (signal.aborted) return Promise.reject(new HeavyReadAbandoned());
    if (this.running(reader) < this.limits.perUser) {
      this.#running.set(reader, this.running(reader) + 1);
      return Promise.resolve(this.#releaser(reader));
    }
    const queue = this.#waiting.get(reader) ?? [];
    if (queue.length >= MAX_WAITING_PER_READER) {
      return Promise.reject(new HeavyReadRefused(this.#retryAfterSeconds()));
    }
    this.#waiting.set(reader, queue);
    return new Promise<ReleaseHeavyRead>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        if (queue.length === 0 && this.#waiting.get(reader) === queue) this.#waiting.delete(reader);
      };
      const onAbort = () => {
        leave();
        reject(new HeavyReadAbandoned());
      };
      const timer = setTimeout(() => {
        leave();
        reject(new HeavyReadRefused(this.#retryAfterSeconds()));
      }, this.limits.queueWaitMs);
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve(this.#releaser(reader));
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  /** The place passes straight to the reader's next waiter, else it is given back. */
  #releaser(reader: string): ReleaseHeavyRead {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.get(reader)?.[0];
      if (next) return next.grant();
      const running = this.running(reader) - 1;
      if (running > 0) this.#running.set(reader, running);
      else this.#running.delete(reader);
    };
  }

  #retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.limits.queueWaitMs / 1000));
  }
}
