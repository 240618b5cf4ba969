import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  addSignInFailure,
  deleteSignInFailures,
  findSignInFailures,
  type FailureCount,
} from './sign-in-failures.repository.js';

/**
 * Sign-in backoff per account and client address (issues 21 and 36), on top of the per-address
 * rate limit. The first `freeFailures` failures in a row cost nothing (typos); after that a
 * sign-in waits `2^(failures − freeFailures)` seconds after the last failure (1, 2, 4 … s), at
 * most `maxWaitSeconds`.
 *
 * Who waits: an address that has failed for the account waits by the larger of its own count
 * and the account's count over all addresses, so guessing from many addresses still slows down
 * (each new address gets one free guess). An address that has not failed for the account never
 * waits: a stranger's failures cannot lock the owner out. A success clears the account's counts
 * everywhere; a day without failures forgets them.
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

function secondsLeft(count: FailureCount | undefined, now: Date): number {
  if (!count) return 0;
  const until = count.lastFailureAt.getTime() + backoffSeconds(count.failures) * 1000;
  return Math.max(0, Math.ceil((until - now.getTime()) / 1000));
}

/** Seconds left before this address may try this account's password again, or 0. */
export async function signInWaitSeconds(
  db: Kysely<Database>,
  email: string,
  clientAddress: string,
  now: Date,
): Promise<number> {
  const { account, address } = await findSignInFailures(db, email, clientAddress);
  if (!address) return 0;
  return Math.max(secondsLeft(address, now), secondsLeft(account, now));
}

/**
 * Counts a failed sign-in; a day without failures forgets the earlier ones. True when this
 * failure starts a burst worth telling the owner about (the account's count just reached
 * `freeFailures`): once per burst, in whichever process counted it.
 */
export async function recordSignInFailure(
  db: Kysely<Database>,
  email: string,
  clientAddress: string,
  now: Date,
): Promise<boolean> {
  const forgetBefore = new Date(now.getTime() - signInBackoff.forgetAfterSeconds * 1000);
  const failures = await addSignInFailure(db, email, clientAddress, now, forgetBefore);
  return failures === signInBackoff.freeFailures;
}

export async function clearSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  await deleteSignInFailures(db, email);
}
