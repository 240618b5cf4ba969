import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../../db/values.js';

/**
 * An outgoing message (issue 36): `kind` picks its handler (mail; webhooks later), `payload_json`
 * is what the handler needs; `recipient` and `summary` are what the operator's list shows.
 */
export interface OutboxTable {
  id: string;
  kind: string;
  recipient: string;
  summary: string;
  payload_json: string;
  /** pending → sending → sent; back to pending after a failure; failed once given up. */
  state: string;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  /** When a pending row may be tried (now, or after a failure's backoff). */
  next_attempt_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  /** The worker delivering it, and until when: a worker that died leaves it to another. */
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
}

export interface OutboxTables {
  outbox: OutboxTable;
}
