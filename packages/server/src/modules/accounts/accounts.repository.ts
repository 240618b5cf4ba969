import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toDate, toOptionalDate } from '../../db/values.js';
import type { AccountCodePurpose, UsersTable } from './accounts.table.js';

/** Users, their passwords, mailed codes and revoked tokens. All SQL of these tables is here. */

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  role: string;
  emailConfirmedAt: Date | null;
  tokenVersion: number;
  paidPlanId: string;
  createdAt: Date;
  /** Set by an administrator: no sign-in, no token works (nothing is deleted). */
  disabledAt: Date | null;
}

export interface NewUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  emailConfirmedAt: Date | null;
  createdAt: Date;
}

/** Sign-in and look-ups compare addresses in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    language: row.language,
    role: row.role,
    emailConfirmedAt: toOptionalDate(row.email_confirmed_at),
    tokenVersion: Number(row.token_version),
    paidPlanId: row.paid_plan_id,
    createdAt: toDate(row.created_at),
    disabledAt: toOptionalDate(row.disabled_at ?? null),
  };
}

/** Disables (a date) or enables (null) an account; false when there is no such user. */
export async function setUserDisabled(
  db: Kysely<Database>,
  userId: string,
  at: Date | null,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ disabled_at: at })
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The admin screen's "last sign-in" (a password or external sign-in that got a token). */
export async function recordSignIn(db: Kysely<Database>, userId: string, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
}

/** Inserts a user; `duplicate` when the address is already registered (also under a race). */
export async function insertUser(db: Kysely<Database>, user: NewUser): Promise<'ok' | 'duplicate'> {
  // ON CONFLICT, not a caught unique violation: on PostgreSQL a failed statement aborts the
  // transaction it is in, so the caller's transaction could no longer commit (a 500 for a taken
  // address where SQLite answered 400).
  const result = await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      normalized_email: normalizeEmail(user.email),
      first_name: user.firstName,
      last_name: user.lastName,
      language: user.language,
      email_confirmed_at: user.emailConfirmedAt,
      created_at: user.createdAt,
    })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? 'ok' : 'duplicate';
}

/** An account of the server's own (no password, no usable address), created once by id. */
export interface SystemUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  planId: string;
  createdAt: Date;
}

/** Inserts a system account unless one with its id exists (a second start finds it). */
export async function insertSystemUser(db: Kysely<Database>, user: SystemUser): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      normalized_email: normalizeEmail(user.email),
      first_name: user.firstName,
      last_name: user.lastName,
      language: 'en',
      paid_plan_id: user.planId,
      email_confirmed_at: user.createdAt,
      created_at: user.createdAt,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('normalized_email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row && toUser(row);
}

/** The user a token names, and whether that token was signed out; one query per request. */
export async function findUserForToken(
  db: Kysely<Database>,
  userId: string,
  tokenId: string,
): Promise<{ user: User; revoked: boolean } | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('revoked_tokens').select('token_id').where('token_id', '=', tokenId))
        .as('revoked'),
    )
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { revoked, ...user } = row;
  return { user: toUser(user), revoked: Boolean(revoked) };
}

export async function markEmailConfirmed(
  db: Kysely<Database>,
  userId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_confirmed_at: at })
    .where('id', '=', userId)
    .where('email_confirmed_at', 'is', null)
    .execute();
}

/** Sets the stored role; false when no user has that address. */
export async function setUserRole(
  db: Kysely<Database>,
  email: string,
  role: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ role })
    .where('normalized_email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes every token issued to the user so far. */
export async function raiseTokenVersion(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', userId)
    .returning('token_version')
    .executeTakeFirstOrThrow();
  return Number(row.token_version);
}

export async function findPasswordHash(
  db: Kysely<Database>,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('local_logins')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

/** Sets the password, creating the local login when the account had none. */
export async function setPasswordHash(
  db: Kysely<Database>,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await db
    .insertInto('local_logins')
    .values({ user_id: userId, password_hash: passwordHash, updated_at: at })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: at }),
    )
    .execute();
}

export interface NewCode {
  id: string;
  userId: string;
  purpose: AccountCodePurpose;
  codeHash: string;
  expiresAt: Date;
  createdAt: Date;
}

export async function insertCode(db: Kysely<Database>, code: NewCode): Promise<void> {
  await db
    .insertInto('account_codes')
    .values({
      id: code.id,
      user_id: code.userId,
      purpose: code.purpose,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      created_at: code.createdAt,
    })
    .execute();
}

/** Codes of a user and purpose that are neither used nor expired. */
export async function findUsableCodes(
  db: Kysely<Database>,
  userId: string,
  purpose: AccountCodePurpose,
  now: Date,
): Promise<{ id: string; codeHash: string }[]> {
  const rows = await db
    .selectFrom('account_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  return rows.map((row) => ({ id: row.id, codeHash: row.code_hash }));
}

/**
 * Uses up every open code of that user and purpose, provided `codeId` was still open: true for
 * the one caller that wins when the same link is followed twice at once.
 */
export async function useCodes(
  db: Kysely<Database>,
  userId: string,
  purpose: AccountCodePurpose,
  codeId: string,
  now: Date,
): Promise<boolean> {
  const claimed = await db
    .updateTable('account_codes')
    .set({ used_at: now })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) return false;
  await db
    .updateTable('account_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  return true;
}

/** Remembers a signed-out token until it would have expired anyway; old entries are dropped. */
export async function revokeToken(
  db: Kysely<Database>,
  tokenId: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await db.deleteFrom('revoked_tokens').where('expires_at', '<=', now).execute();
  await db
    .insertInto('revoked_tokens')
    .values({ token_id: tokenId, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('token_id').doNothing())
    .execute();
}

/** Sets the user's plan (billing, or the operator's `plan set`); false when no user has that address. */
export async function setUserPlan(
  db: Kysely<Database>,
  email: string,
  planId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ paid_plan_id: planId })
    .where('normalized_email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sets the plan in force of one user (billing, as the subscription changes). */
export async function setUserPlanById(
  db: Kysely<Database>,
  userId: string,
  planId: string,
): Promise<void> {
  await db.updateTable('users').set({ paid_plan_id: planId }).where('id', '=', userId).execute();
}
