import type { Kysely } from 'kysely';
import { outboxStateSchema, type AdminOutboxPage, type AdminOutboxQuery } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toDate, toOptionalDate } from '../../db/values.js';
import {
  insertOutboxMessage,
  outboxCounts,
  outboxPage,
  type NewOutboxMessage,
} from './outbox.repository.js';

/**
 * The outbox as other modules use it (issue 36): mail (and later webhooks) adds messages, in the
 * caller's transaction when it has one; the operator's screen lists and counts them. Sending is
 * the OutboxWorker's.
 */
export class OutboxService {
  constructor(private readonly deps: { db: Kysely<Database> }) {}

  /** Writes a message to send: in `db` when it is the caller's transaction, else on its own. */
  add(message: NewOutboxMessage, db: Kysely<Database> = this.deps.db): Promise<string> {
    return insertOutboxMessage(db, message, new Date());
  }

  /** The messages with their state, attempts and last error, newest first. */
  async page(query: AdminOutboxQuery): Promise<AdminOutboxPage> {
    const page = await outboxPage(this.deps.db, query);
    return {
      total: page.total,
      rows: page.rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        recipient: row.recipient,
        summary: row.summary,
        state: outboxStateSchema.parse(row.state),
        attempts: Number(row.attempts),
        lastError: row.last_error,
        createdAt: toDate(row.created_at).toISOString(),
        nextAttemptAt:
          row.state === 'pending'
            ? (toOptionalDate(row.next_attempt_at)?.toISOString() ?? null)
            : null,
        sentAt: toOptionalDate(row.sent_at)?.toISOString() ?? null,
      })),
    };
  }

  /** Messages not sent yet (pending or being sent) and those given up. */
  async counts(): Promise<{ pending: number; failed: number }> {
    const counts = await outboxCounts(this.deps.db);
    return {
      pending: (counts.pending ?? 0) + (counts.sending ?? 0),
      failed: counts.failed ?? 0,
    };
  }
}
