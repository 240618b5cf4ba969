import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import {
  claimDueMessages,
  markFailedAttempt,
  markSent,
  pruneSent,
  type OutboxRow,
} from './outbox.repository.js';

/** Delivers one message of a kind; throws when it could not (it is then retried). */
export type OutboxHandler = (payload: unknown, row: OutboxRow) => Promise<void>;

export interface OutboxWorkerDeps {
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** One handler per kind: `mail` (mail.service.ts); webhooks will add theirs (issue 38). */
  handlers: Record<string, OutboxHandler>;
  /** How often an idle worker looks (a wake() is sooner). */
  pollMs: number;
  /** The wait after the first failure, doubled per further attempt (at most an hour). */
  retryBaseMs: number;
  /** Tries before a message is given up (failed) and shown so on the admin screen. */
  maxAttempts: number;
  /** How long a claimed message is this worker's: past it another worker may send it. */
  leaseMs?: number;
}

const batchSize = 20;
const maxBackoffMs = 3600_000;
const keepSentMs = 30 * 24 * 3600_000;
const pruneEveryMs = 3600_000;

/**
 * Sends what the outbox holds (issue 36): every process runs one; each takes due messages under
 * a lease, so several processes never send one twice while they live, and a message whose
 * process died mid-send is taken again when its lease runs out. Real time throughout (a test's
 * service clock must not make leases or backoffs run out).
 */
export class OutboxWorker {
  readonly #owner = `${hostname()}:${process.pid}:outbox:${Math.random().toString(36).slice(2)}`;
  #stopped = true;
  #loop: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;
  #woken = false;
  #lastPrune = 0;

  constructor(private readonly deps: OutboxWorkerDeps) {}

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /** A message was committed: look now rather than at the next poll. */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Stops looking; waits for the sends under way (their rows are recorded). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let sent = 0;
      try {
        sent = await this.deliverDue();
        await this.#pruneNow();
      } catch (error) {
        this.deps.log.error({ err: error }, 'outbox worker error');
      }
      // A full batch: more may be due at once.
      if (sent < batchSize) await this.#idle();
    }
  }

  /** One look: takes the due messages and delivers each. Answers how many it took. */
  async deliverDue(): Promise<number> {
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + (this.deps.leaseMs ?? 60_000));
    const rows = await claimDueMessages(
      this.deps.database,
      this.#owner,
      now,
      leaseUntil,
      batchSize,
    );
    for (const row of rows) await this.#deliver(row);
    return rows.length;
  }

  async #deliver(row: OutboxRow): Promise<void> {
    const { db } = this.deps.database;
    const handler = this.deps.handlers[row.kind];
    try {
      if (!handler) throw new Error(`no handler for outbox kind "${row.kind}"`);
      await handler(JSON.parse(row.payload_json), row);
    } catch (error) {
      const attempts = Number(row.attempts);
      const retryAt =
        attempts >= this.deps.maxAttempts
          ? null
          : new Date(
              Date.now() + Math.min(this.deps.retryBaseMs * 2 ** (attempts - 1), maxBackoffMs),
            );
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.warn(
        { err: error, outboxId: row.id, kind: row.kind, attempts, retryAt },
        retryAt ? 'outgoing message failed: retry later' : 'outgoing message given up',
      );
      await markFailedAttempt(db, row.id, this.#owner, message, retryAt);
      return;
    }
    await markSent(db, row.id, this.#owner, new Date());
  }

  async #pruneNow(): Promise<void> {
    if (Date.now() - this.#lastPrune < pruneEveryMs) return;
    this.#lastPrune = Date.now();
    await pruneSent(this.deps.database.db, new Date(Date.now() - keepSentMs));
  }

  #idle(): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        this.#woken = false;
        resolve();
      };
      const timer = setTimeout(done, this.deps.pollMs);
      timer.unref();
      this.#wake = done;
    });
  }
}
