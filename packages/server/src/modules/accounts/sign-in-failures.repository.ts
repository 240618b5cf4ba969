import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';
import { normalizeEmail } from './accounts.repository.js';

/**
 * Failed sign-ins in a row, per account (`sign_in_failures`, every address together) and per
 * account and client address (`sign_in_address_failures`); sign-in-backoff.ts decides what they
 * cost. Both live in the database, so every api process counts the same failures.
 */

export interface FailureCount {
  failures: number;
  lastFailureAt: Date;
}

export interface SignInFailureCounts {
  /** Every address's failures for the account. */
  account: FailureCount | undefined;
  /** This address's failures for the account. */
  address: FailureCount | undefined;
}

function counted(
  row: { failures: number; last_failure_at: Date | string } | undefined,
): FailureCount | undefined {
  return row && { failures: row.failures, lastFailureAt: toDate(row.last_failure_at) };
}

export async function findSignInFailures(
  db: Kysely<Database>,
  email: string,
  clientAddress: string,
): Promise<SignInFailureCounts> {
  const normalized = normalizeEmail(email);
  const [account, address] = await Promise.all([
    db
      .selectFrom('sign_in_failures')
      .select(['failures', 'last_failure_at'])
      .where('normalized_email', '=', normalized)
      .executeTakeFirst(),
    db
      .selectFrom('sign_in_address_failures')
      .select(['failures', 'last_failure_at'])
      .where('normalized_email', '=', normalized)
      .where('client_address', '=', clientAddress)
      .executeTakeFirst(),
  ]);
  return { account: counted(account), address: counted(address) };
}

/**
 * Forgets failures older than `forgetBefore`, then counts one more for the account and for the
 * pair (upserts, one statement each, so concurrent failures all count). Answers the account's
 * new count: the one process that sees it reach a threshold is the one that acts on it.
 */
export async function addSignInFailure(
  db: Kysely<Database>,
  email: string,
  clientAddress: string,
  now: Date,
  forgetBefore: Date,
): Promise<number> {
  const normalized = normalizeEmail(email);
  await db.deleteFrom('sign_in_failures').where('last_failure_at', '<', forgetBefore).execute();
  await db
    .deleteFrom('sign_in_address_failures')
    .where('last_failure_at', '<', forgetBefore)
    .execute();
  await db
    .insertInto('sign_in_address_failures')
    .values({
      normalized_email: normalized,
      client_address: clientAddress,
      failures: 1,
      last_failure_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['normalized_email', 'client_address']).doUpdateSet((eb) => ({
        failures: eb(eb.ref('sign_in_address_failures.failures'), '+', 1),
        last_failure_at: now,
      })),
    )
    .execute();
  const account = await db
    .insertInto('sign_in_failures')
    .values({ normalized_email: normalized, failures: 1, last_failure_at: now })
    .onConflict((conflict) =>
      conflict.column('normalized_email').doUpdateSet((eb) => ({
        failures: eb(eb.ref('sign_in_failures.failures'), '+', 1),
        last_failure_at: now,
      })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return account.failures;
}

/** A success forgets the account's failures, from every address. */
export async function deleteSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  const normalized = normalizeEmail(email);
  await db.deleteFrom('sign_in_failures').where('normalized_email', '=', normalized).execute();
  await db
    .deleteFrom('sign_in_address_failures')
    .where('normalized_email', '=', normalized)
    .execute();
}
