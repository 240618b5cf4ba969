import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { BillingAccountsTable, VouchersTable } from './billing.table.js';

/** The billing service's SQL: users' subscription state, vouchers, applied provider events. */

export type BillingAccountRow = Selectable<BillingAccountsTable>;
export type VoucherRow = Selectable<VouchersTable>;
type Db = Kysely<Database>;

export function findBillingAccount(db: Db, userId: string): Promise<BillingAccountRow | undefined> {
  return db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findBillingAccountBySubscription(
  db: Db,
  subscriptionId: string,
): Promise<BillingAccountRow | undefined> {
  return db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
}

export function findBillingAccountByCustomer(
  db: Db,
  customerId: string,
): Promise<BillingAccountRow | undefined> {
  return db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
}

export async function insertBillingAccount(
  db: Db,
  row: Insertable<BillingAccountsTable>,
): Promise<void> {
  await db.insertInto('billing_accounts').values(row).execute();
}

export async function updateBillingAccount(
  db: Db,
  userId: string,
  changes: Updateable<BillingAccountsTable>,
): Promise<void> {
  await db.updateTable('billing_accounts').set(changes).where('user_id', '=', userId).execute();
}

/**
 * Gateway statuses of a subscription that is over or never started: nothing more will happen
 * to it, so an operator's plan grant may forget it.
 */
export const endedSubscriptionStatuses = ['incomplete', 'incomplete_expired', 'canceled'];

/** Forgets a user's ended subscription (`plan set`); a live one is kept. True when one went. */
export async function deleteEndedBillingAccount(db: Db, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('billing_accounts')
    .where('user_id', '=', userId)
    .where('status', 'in', endedSubscriptionStatuses)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertVoucher(
  db: Db,
  row: Insertable<VouchersTable>,
): Promise<'ok' | 'duplicate'> {
  try {
    await db.insertInto('vouchers').values(row).execute();
    return 'ok';
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

/** Exactly the code typed: vouchers are case sensitive (SPEC §5). */
export function findVoucher(db: Db, code: string): Promise<VoucherRow | undefined> {
  return db.selectFrom('vouchers').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Sets the voucher's expiry to `at` (unless it already expired earlier). */
export async function expireVoucher(db: Db, code: string, at: Date): Promise<void> {
  await db
    .updateTable('vouchers')
    .set({ expires_at: at })
    .where('code', '=', code)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .execute();
}

export function listVouchers(db: Db): Promise<VoucherRow[]> {
  return db.selectFrom('vouchers').selectAll().orderBy('created_at', 'desc').execute();
}

/** Takes one use of a voucher; false when its use limit is reached (a parallel use won). */
export async function useVoucher(db: Db, code: string): Promise<boolean> {
  const result = await db
    .updateTable('vouchers')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('code', '=', code)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives a use back when the payment it was taken for failed. */
export async function releaseVoucher(db: Db, code: string): Promise<void> {
  await db
    .updateTable('vouchers')
    .set((eb) => ({ uses: eb('uses', '-', 1) }))
    .where('code', '=', code)
    .where('uses', '>', 0)
    .execute();
}

/** Records a provider event as applied; false when it already was (a replay). */
export async function markEventApplied(
  db: Db,
  eventId: string,
  type: string,
  now: Date,
): Promise<boolean> {
  try {
    await db
      .insertInto('billing_applied_events')
      .values({ event_id: eventId, type, applied_at: now })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Applying failed: forget the event so the provider's retry is applied. */
export async function forgetEvent(db: Db, eventId: string): Promise<void> {
  await db.deleteFrom('billing_applied_events').where('event_id', '=', eventId).execute();
}

/**
 * Takes the user's billing lock for `holder` until `expiresAt`: a new row, or the row of a holder
 * whose lease ended (its process died). False while another call holds it.
 */
export async function tryLockUser(
  db: Db,
  userId: string,
  holder: string,
  now: Date,
  expiresAt: Date,
): Promise<boolean> {
  try {
    await db
      .insertInto('billing_user_locks')
      .values({ user_id: userId, holder, expires_at: expiresAt })
      .execute();
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const taken = await db
    .updateTable('billing_user_locks')
    .set({ holder, expires_at: expiresAt })
    .where('user_id', '=', userId)
    .where('expires_at', '<', now)
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

/** Gives the lock back, if `holder` still has it. */
export async function unlockUser(db: Db, userId: string, holder: string): Promise<void> {
  await db
    .deleteFrom('billing_user_locks')
    .where('user_id', '=', userId)
    .where('holder', '=', holder)
    .execute();
}
