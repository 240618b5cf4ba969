import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';
import {
  addSignInFailure,
  deleteSignInFailures,
  findSignInFailures,
} from './sign-in-failures.repository.js';

/**
 * Per-account sign-in backoff (issue 21), on top of the per-address rate limit: guessing one
 * account's password from many addresses slows down all the same. The first
 * `freeFailures` failures in a row cost nothing (typos); after that each sign-in of the account
 * waits `2^(failures − freeFailures)` seconds after the last failure (1, 2, 4 … s), at most
 * `maxWaitSeconds`. A success clears the count; a day without failures forgets it.
 */
export const signInBackoff = {
  freeFailures: 5,
  maxWaitSeconds: 15 * 60,
  forgetAfterSeconds: 24 * 3600,
} as const;

/** Seconds a sign-in must wait after `failures` failures in a row (0: none). */
export function backoffSeconds(failures: number): number {
  if (failures < signInBackoff.freeFailures) return 0;
  const exponent = failures - signInBackoff.freeFailures;
  return Math.min(2 ** Math.min(exponent, 30), signInBackoff.maxWaitSeconds);
}

/** Seconds left before this address may try again, or 0. */
export async function signInWaitSeconds(
  db: Kysely<Database>,
  email: string,
  now: Date,
): Promise<number> {
  const row = await findSignInFailures(db, email);
  if (!row) return 0;
  const until = toDate(row.last_failure_at).getTime() + backoffSeconds(row.failures) * 1000;
  return Math.max(0, Math.ceil((until - now.getTime()) / 1000));
}

/** Counts a failed sign-in; a day without failures forgets the earlier ones. */
export async function recordSignInFailure(
  db: Kysely<Database>,
  email: string,
  now: Date,
): Promise<void> {
  const forgetBefore = new Date(now.getTime() - signInBackoff.forgetAfterSeconds * 1000);
  await addSignInFailure(db, email, now, forgetBefore);
}

export async function clearSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  await deleteSignInFailures(db, email);
}
