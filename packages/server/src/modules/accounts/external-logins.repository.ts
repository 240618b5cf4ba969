import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { toBoolean, toDate } from '../../db/values.js';

/** External logins, sign-ins under way at a provider, and identities waiting for registration. */

export interface ExternalLogin {
  provider: string;
  providerKey: string;
  userId: string;
}

/** Links a provider's subject to a user; `duplicate` when it is linked already (to anyone). */
export async function insertExternalLogin(
  db: Kysely<Database>,
  login: ExternalLogin,
  at: Date,
): Promise<'ok' | 'duplicate'> {
  try {
    await db
      .insertInto('external_logins')
      .values({
        provider: login.provider,
        provider_key: login.providerKey,
        user_id: login.userId,
        created_at: at,
      })
      .execute();
    return 'ok';
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

export async function findExternalLogin(
  db: Kysely<Database>,
  provider: string,
  providerKey: string,
): Promise<ExternalLogin | undefined> {
  const row = await db
    .selectFrom('external_logins')
    .select(['provider', 'provider_key', 'user_id'])
    .where('provider', '=', provider)
    .where('provider_key', '=', providerKey)
    .executeTakeFirst();
  return row && { provider: row.provider, providerKey: row.provider_key, userId: row.user_id };
}

export async function listExternalLogins(
  db: Kysely<Database>,
  userId: string,
): Promise<ExternalLogin[]> {
  const rows = await db
    .selectFrom('external_logins')
    .select(['provider', 'provider_key', 'user_id'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('provider')
    .execute();
  return rows.map((row) => ({
    provider: row.provider,
    providerKey: row.provider_key,
    userId: row.user_id,
  }));
}

export async function deleteExternalLogin(
  db: Kysely<Database>,
  login: ExternalLogin,
): Promise<boolean> {
  const result = await db
    .deleteFrom('external_logins')
    .where('user_id', '=', login.userId)
    .where('provider', '=', login.provider)
    .where('provider_key', '=', login.providerKey)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export interface ExternalLoginRequest {
  id: string;
  provider: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  clientState: string | null;
  expiresAt: Date;
}

/** Stores a sign-in sent to a provider; requests that were never finished are dropped. */
export async function insertExternalLoginRequest(
  db: Kysely<Database>,
  request: ExternalLoginRequest,
  now: Date,
): Promise<void> {
  await db.deleteFrom('external_login_requests').where('expires_at', '<=', now).execute();
  await db
    .insertInto('external_login_requests')
    .values({
      id: request.id,
      provider: request.provider,
      code_verifier: request.codeVerifier,
      nonce: request.nonce,
      redirect_uri: request.redirectUri,
      client_state: request.clientState,
      expires_at: request.expiresAt,
    })
    .execute();
}

/** Removes and returns a request: the provider's answer can be used once. */
export async function takeExternalLoginRequest(
  db: Kysely<Database>,
  id: string,
): Promise<ExternalLoginRequest | undefined> {
  const row = await db
    .deleteFrom('external_login_requests')
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      provider: row.provider,
      codeVerifier: row.code_verifier,
      nonce: row.nonce,
      redirectUri: row.redirect_uri,
      clientState: row.client_state,
      expiresAt: toDate(row.expires_at),
    }
  );
}

export interface PendingExternalLogin {
  id: string;
  provider: string;
  providerKey: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  expiresAt: Date;
}

export async function insertPendingExternalLogin(
  db: Kysely<Database>,
  pending: PendingExternalLogin,
  now: Date,
): Promise<void> {
  await db.deleteFrom('pending_external_logins').where('expires_at', '<=', now).execute();
  await db
    .insertInto('pending_external_logins')
    .values({
      id: pending.id,
      provider: pending.provider,
      provider_key: pending.providerKey,
      email: pending.email,
      email_verified: pending.emailVerified,
      first_name: pending.firstName,
      last_name: pending.lastName,
      expires_at: pending.expiresAt,
    })
    .execute();
}

/** A pending identity that has not expired. */
export async function findPendingExternalLogin(
  db: Kysely<Database>,
  id: string,
  now: Date,
): Promise<PendingExternalLogin | undefined> {
  const row = await db
    .selectFrom('pending_external_logins')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      provider: row.provider,
      providerKey: row.provider_key,
      email: row.email,
      emailVerified: toBoolean(row.email_verified),
      firstName: row.first_name,
      lastName: row.last_name,
      expiresAt: toDate(row.expires_at),
    }
  );
}

/** Removes a pending identity; true for the one caller that removed it. */
export async function deletePendingExternalLogin(
  db: Kysely<Database>,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('pending_external_logins')
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
