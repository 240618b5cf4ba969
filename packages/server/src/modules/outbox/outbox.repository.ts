import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AdminOutboxQuery, OutboxKind } from '@linkaudit/core';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { OutboxTable } from './outbox.table.js';

export type OutboxRow = Selectable<OutboxTable>;

export interface NewOutboxMessage {
  kind: OutboxKind;
  recipient: string;
  summary: string;
  payload: unknown;
}

/**
 * Writes a message to send, in the caller's transaction when it passes one (`db` may be a
 * Transaction): it exists exactly when the change that caused it was committed.
 */
export async function insertOutboxMessage(
  db: Kysely<Database>,
  message: NewOutboxMessage,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('outbox')
    .values({
      id,
      kind: message.kind,
      recipient: message.recipient.slice(0, 2000),
      summary: message.summary.slice(0, 500),
      payload_json: JSON.stringify(message.payload),
      state: 'pending',
      created_at: now,
      next_attempt_at: now,
    })
    .execute();
  return id;
}

/**
 * Takes up to `limit` due messages for `owner` until `leaseUntil`: pending ones whose time has
 * come, and sending ones whose worker's lease ran out (it died mid-send). PostgreSQL skips rows
 * another worker is taking (FOR UPDATE SKIP LOCKED); SQLite's one UPDATE is atomic.
 */
export async function claimDueMessages(
  database: DatabaseHandle,
  owner: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  const claim = {
    state: 'sending',
    lease_owner: owner,
    lease_expires_at: leaseUntil,
    attempts: sql<number>`attempts + 1`,
  };
  const due = (db: Kysely<Database>) =>
    db
      .selectFrom('outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('lease_expires_at', '<', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit);
  if (database.dialect === 'postgres') {
    return database.db.transaction().execute(async (trx) => {
      const rows = await due(trx).forUpdate().skipLocked().execute();
      if (rows.length === 0) return [];
      return trx
        .updateTable('outbox')
        .set(claim)
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .returningAll()
        .execute();
    });
  }
  return database.db
    .updateTable('outbox')
    .set(claim)
    .where('id', 'in', due(database.db))
    .returningAll()
    .execute();
}

/** Delivered: only while `owner` still holds it (a worker that lost its lease records nothing). */
export async function markSent(
  db: Kysely<Database>,
  id: string,
  owner: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      state: 'sent',
      sent_at: now,
      last_error: null,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Not delivered: tried again at `retryAt`, or given up (failed) when it is null. */
export async function markFailedAttempt(
  db: Kysely<Database>,
  id: string,
  owner: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      state: retryAt ? 'pending' : 'failed',
      next_attempt_at: retryAt,
      last_error: error.slice(0, 2000),
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** The operator's list: newest first, all or of one state. */
export async function outboxPage(db: Kysely<Database>, query: AdminOutboxQuery) {
  let filtered = db.selectFrom('outbox');
  if (query.state) filtered = filtered.where('state', '=', query.state);
  const [total, rows] = await Promise.all([
    filtered
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow(),
    filtered
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(total.count), rows };
}

/**
 * Messages not yet delivered, by state (pending, sending, failed), for /metrics and the health
 * screen; sent ones are left out (they only grow).
 */
export async function outboxCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('outbox')
    .select(['state', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('state', '!=', 'sent')
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
}

/** Forgets messages delivered before `before` (the list keeps a month of them). */
export async function pruneSent(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('outbox').where('state', '=', 'sent').where('sent_at', '<', before).execute();
}
