import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import type {
  SandboxCardsTable,
  SandboxCustomersTable,
  SandboxInvoicesTable,
  SandboxSubscriptionsTable,
} from './billing.table.js';

/**
 * The sandbox gateway's SQL: its cards, customers, subscriptions, invoices, idempotency keys,
 * event outbox, and the BillingClock's offset (in server_meta, shared by every process).
 */

export type SandboxCardRow = Selectable<SandboxCardsTable>;
export type SandboxCustomerRow = Selectable<SandboxCustomersTable>;
export type SandboxSubscriptionRow = Selectable<SandboxSubscriptionsTable>;
export type SandboxInvoiceRow = Selectable<SandboxInvoicesTable>;
type Db = Kysely<Database>;

const clockOffsetKey = 'billing_clock_offset_ms';

export async function readClockOffsetMs(db: Db): Promise<number> {
  const row = await db
    .selectFrom('server_meta')
    .select('value')
    .where('key', '=', clockOffsetKey)
    .executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/** Adds to the offset and answers the new one; safe when two commands run at once. */
export async function addClockOffsetMs(db: Db, addMs: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const current = await readClockOffsetMs(trx);
    const next = current + addMs;
    await trx
      .insertInto('server_meta')
      .values({ key: clockOffsetKey, value: String(next) })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: String(next) }))
      .execute();
    return next;
  });
}

export async function insertCard(db: Db, card: Insertable<SandboxCardsTable>): Promise<void> {
  await db.insertInto('sandbox_cards').values(card).execute();
}

export function findCard(db: Db, token: string): Promise<SandboxCardRow | undefined> {
  return db.selectFrom('sandbox_cards').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function insertCustomer(
  db: Db,
  customer: Insertable<SandboxCustomersTable>,
): Promise<void> {
  await db.insertInto('sandbox_customers').values(customer).execute();
}

export function findCustomer(db: Db, id: string): Promise<SandboxCustomerRow | undefined> {
  return db.selectFrom('sandbox_customers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setCustomerCard(db: Db, id: string, token: string): Promise<void> {
  await db
    .updateTable('sandbox_customers')
    .set({ card_token: token })
    .where('id', '=', id)
    .execute();
}

export async function addCustomerBalance(db: Db, id: string, cents: number): Promise<void> {
  await db
    .updateTable('sandbox_customers')
    .set((eb) => ({ balance_cents: eb('balance_cents', '+', cents) }))
    .where('id', '=', id)
    .execute();
}

export async function insertSubscription(
  db: Db,
  row: Insertable<SandboxSubscriptionsTable>,
): Promise<void> {
  await db.insertInto('sandbox_subscriptions').values(row).execute();
}

export function findSubscription(db: Db, id: string): Promise<SandboxSubscriptionRow | undefined> {
  return db.selectFrom('sandbox_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateSubscription(
  db: Db,
  id: string,
  changes: Updateable<SandboxSubscriptionsTable>,
): Promise<void> {
  await db.updateTable('sandbox_subscriptions').set(changes).where('id', '=', id).execute();
}

/**
 * Moves a subscription on from the period that ends at `periodEnd`; false when another
 * scheduler did it first, so each renewal happens exactly once.
 */
export async function claimPeriodEnd(
  db: Db,
  id: string,
  periodEnd: Date,
  changes: Updateable<SandboxSubscriptionsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('sandbox_subscriptions')
    .set(changes)
    .where('id', '=', id)
    .where('current_period_end', '=', periodEnd)
    .where('status', '!=', 'canceled')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Live subscriptions whose period has ended by `now`, oldest first. */
export function dueSubscriptions(
  db: Db,
  now: Date,
  limit: number,
): Promise<SandboxSubscriptionRow[]> {
  return db
    .selectFrom('sandbox_subscriptions')
    .selectAll()
    .where('status', 'in', ['trialing', 'active', 'past_due'])
    .where('current_period_end', '<=', now)
    .orderBy('current_period_end')
    .limit(limit)
    .execute();
}

export async function insertInvoice(db: Db, row: Insertable<SandboxInvoicesTable>): Promise<void> {
  await db.insertInto('sandbox_invoices').values(row).execute();
}

export function findInvoice(db: Db, id: string): Promise<SandboxInvoiceRow | undefined> {
  return db.selectFrom('sandbox_invoices').selectAll().where('id', '=', id).executeTakeFirst();
}

export function openInvoiceOf(
  db: Db,
  subscriptionId: string,
): Promise<SandboxInvoiceRow | undefined> {
  return db
    .selectFrom('sandbox_invoices')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function updateInvoice(
  db: Db,
  id: string,
  changes: Updateable<SandboxInvoicesTable>,
): Promise<void> {
  await db.updateTable('sandbox_invoices').set(changes).where('id', '=', id).execute();
}

/** Invoices that are still open are voided when a new period starts (the new one replaces them). */
export async function voidOpenInvoices(db: Db, subscriptionId: string): Promise<void> {
  await db
    .updateTable('sandbox_invoices')
    .set({ status: 'void' })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'open')
    .execute();
}

export function listInvoices(db: Db, customerId: string): Promise<SandboxInvoiceRow[]> {
  return db
    .selectFrom('sandbox_invoices')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Takes an idempotency key; false when it was already taken (by an earlier or a parallel call). */
export async function claimIdempotencyKey(db: Db, key: string, now: Date): Promise<boolean> {
  try {
    await db
      .insertInto('sandbox_idempotency')
      .values({ key, result_json: null, created_at: now })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function idempotentResult(db: Db, key: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('sandbox_idempotency')
    .select('result_json')
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? row.result_json : undefined;
}

export async function storeIdempotentResult(db: Db, key: string, result: string): Promise<void> {
  await db
    .updateTable('sandbox_idempotency')
    .set({ result_json: result })
    .where('key', '=', key)
    .execute();
}

/** A call that failed gives its key back, so trying again (with a new card, say) is possible. */
export async function releaseIdempotencyKey(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sandbox_idempotency').where('key', '=', key).execute();
}

export async function insertEvent(
  db: Db,
  event: { id: string; type: string; payloadJson: string; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('sandbox_events')
    .values({
      id: event.id,
      type: event.type,
      payload_json: event.payloadJson,
      created_at: event.createdAt,
      delivered_at: null,
    })
    .execute();
}

export function pendingEvents(db: Db, limit: number) {
  return db
    .selectFrom('sandbox_events')
    .select(['id', 'payload_json'])
    .where('delivered_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** One process takes an event to deliver; false when another already took it. */
export async function claimEvent(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('sandbox_events')
    .set({ delivered_at: now })
    .where('id', '=', id)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Delivery failed (a listener threw): the event waits for the next run. */
export async function unclaimEvent(db: Db, id: string): Promise<void> {
  await db.updateTable('sandbox_events').set({ delivered_at: null }).where('id', '=', id).execute();
}
