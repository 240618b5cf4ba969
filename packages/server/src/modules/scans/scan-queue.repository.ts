import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { ScanStatus } from '@linkaudit/core';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ScanRow } from './scans.repository.js';

/** The statuses in which a scan takes a worker (its owner's running scans). */
const takingWorker = [
  ScanStatus.InProgress,
  ScanStatus.RuleChecking,
  ScanStatus.Finalizing,
  ScanStatus.Cancelling,
];

/**
 * How the queue is shared (issue 36): scans of one user running at once, by the plan priority
 * stored on the scan (priority → cap; a priority not listed gets `otherwise`).
 */
export interface QueueFairness {
  runningCapByPriority: ReadonlyMap<number, number>;
  otherwise: number;
}

/** A key for PostgreSQL's transaction-scoped advisory lock that serialises claims. */
const claimLockKey = 36_0001;

/**
 * Taking the next queued scan: the only dialect-specific SQL of the scans domain. The choice is
 * the same on both (nextQueuedScan); PostgreSQL makes it under an advisory lock held to the
 * commit, so two workers cannot both see a user under the cap and both start one of theirs (a
 * claim is a few milliseconds: one at a time is far faster than scans start); SQLite (one file,
 * one writer) does it in one conditional UPDATE … WHERE status = Queued.
 */
export async function claimNextScan(
  database: DatabaseHandle,
  owner: string,
  now: Date,
  leaseUntil: Date,
  fairness: QueueFairness,
): Promise<ScanRow | undefined> {
  const claim = {
    status: ScanStatus.InProgress,
    lease_owner: owner,
    lease_expires_at: leaseUntil,
    started_at: now,
    not_before: null,
    attempts: sql<number>`attempts + 1`,
  };
  const { db } = database;
  if (database.dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${claimLockKey})`.execute(trx);
      const next = await nextQueuedScan(trx, now, fairness)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!next) return undefined;
      return trx
        .updateTable('scans')
        .set(claim)
        .where('id', '=', next.id)
        .returningAll()
        .executeTakeFirst();
    });
  }
  return db
    .updateTable('scans')
    .set(claim)
    .where('status', '=', ScanStatus.Queued)
    .where('id', '=', () => nextQueuedScan(db, now, fairness))
    .returningAll()
    .executeTakeFirst();
}

/**
 * The scan a worker takes next: Queued, due (its retry's `not_before` passed), of a user with
 * fewer scans running than their plan allows; the highest plan priority first, and within a
 * priority the user whose last start is oldest (never started first): round robin between
 * users, so one user's hundred queued scans wait their turn instead of blocking everyone's.
 * Then the user's oldest scan. Each candidate costs two index lookups of its owner's scans
 * (scans_user_status, scans_user_started), not a walk over them.
 */
export function nextQueuedScan(db: Kysely<Database>, now: Date, fairness: QueueFairness) {
  return db
    .selectFrom('scans as q')
    .select('q.id')
    .where('q.status', '=', ScanStatus.Queued)
    .where('q.trashed_at', 'is', null)
    .where((eb) => eb.or([eb('q.not_before', 'is', null), eb('q.not_before', '<=', now)]))
    .where((eb) => eb(runningOfOwner(eb), '<', runningCap(eb, fairness)))
    .orderBy('q.priority', 'desc')
    .orderBy((eb) => sql`${lastStartOfOwner(eb)} is not null`)
    .orderBy((eb) => lastStartOfOwner(eb))
    .orderBy('q.created_at')
    .orderBy('q.id')
    .limit(1);
}

type QueueExpressions = ExpressionBuilder<Database & { q: Database['scans'] }, 'q'>;

function runningOfOwner(eb: QueueExpressions) {
  return eb
    .selectFrom('scans as r')
    .select((inner) => inner.fn.countAll<number>().as('running'))
    .whereRef('r.user_id', '=', 'q.user_id')
    .where('r.status', 'in', takingWorker);
}

function lastStartOfOwner(eb: QueueExpressions) {
  return eb
    .selectFrom('scans as r')
    .select((inner) => inner.fn.max('r.started_at').as('last_start'))
    .whereRef('r.user_id', '=', 'q.user_id');
}

function runningCap(eb: QueueExpressions, fairness: QueueFairness) {
  const entries = [...fairness.runningCapByPriority];
  if (entries.length === 0) return eb.val(fairness.otherwise);
  const [first, ...rest] = entries as [[number, number], ...Array<[number, number]>];
  let cases = eb.case('q.priority').when(first[0]).then(first[1]);
  for (const [priority, cap] of rest) cases = cases.when(priority).then(cap);
  return cases.else(fairness.otherwise).end();
}

/**
 * Queued scans in the order they are expected to start (queue positions): round robin as the
 * claim does it, each user's k-th queued scan after every user's (k-1)-th of the same priority,
 * users ordered by their last start; running caps and retry times are left out (they change by
 * the minute).
 */
export async function queuedInTurnOrder(db: Kysely<Database>): Promise<string[]> {
  const queued = db
    .selectFrom('scans as q')
    .select([
      'q.id',
      'q.priority',
      'q.created_at',
      sql<number>`row_number() over (partition by q.user_id order by q.created_at, q.id)`.as(
        'turn',
      ),
      (eb) => lastStartOfOwner(eb).as('last_start'),
    ])
    .where('q.status', '=', ScanStatus.Queued)
    .where('q.trashed_at', 'is', null);
  // A derived table: PostgreSQL orders by an output column only as a bare name.
  const rows = await db
    .selectFrom(queued.as('t'))
    .select('t.id')
    .orderBy('t.priority', 'desc')
    .orderBy('t.turn')
    .orderBy(sql`t.last_start is not null`)
    .orderBy('t.last_start')
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map((row) => row.id);
}
