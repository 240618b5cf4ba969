import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { normalizeEmail } from './accounts.repository.js';
import type { SignInFailuresTable } from './accounts.table.js';

/** Failed sign-ins in a row per account (sign-in-backoff.ts decides what they cost). */

export type SignInFailures = Pick<Selectable<SignInFailuresTable>, 'failures' | 'last_failure_at'>;

export async function findSignInFailures(
  db: Kysely<Database>,
  email: string,
): Promise<SignInFailures | undefined> {
  return db
    .selectFrom('sign_in_failures')
    .select(['failures', 'last_failure_at'])
    .where('normalized_email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

/**
 * Forgets failures older than `forgetBefore`, then counts one more for `email` (an upsert, one
 * statement, so concurrent failures all count).
 */
export async function addSignInFailure(
  db: Kysely<Database>,
  email: string,
  now: Date,
  forgetBefore: Date,
): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('last_failure_at', '<', forgetBefore).execute();
  await db
    .insertInto('sign_in_failures')
    .values({ normalized_email: normalizeEmail(email), failures: 1, last_failure_at: now })
    .onConflict((conflict) =>
      conflict.column('normalized_email').doUpdateSet((eb) => ({
        failures: eb(eb.ref('sign_in_failures.failures'), '+', 1),
        last_failure_at: now,
      })),
    )
    .execute();
}

export async function deleteSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  await db
    .deleteFrom('sign_in_failures')
    .where('normalized_email', '=', normalizeEmail(email))
    .execute();
}
