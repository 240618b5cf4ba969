import type { ColumnType, Generated } from 'kysely';
import type { Flag, NullableTimestamp, Timestamp } from '../../db/values.js';

/** A person with an account; the user name is the e-mail address. */
export interface UsersTable {
  id: string;
  email: string;
  /** Lower-cased e-mail: unique, what sign-in and look-ups compare. */
  normalized_email: string;
  first_name: string;
  last_name: string;
  /** `en` or `zh-CN`: the language of the mails we send. */
  language: Generated<string>;
  /** `user` or `admin` (ADMIN_EMAILS makes admins too, without this column). */
  role: Generated<string>;
  email_confirmed_at: NullableTimestamp;
  /** Raised to revoke every token issued before (password reset or change). */
  token_version: Generated<number>;
  /** Free, Basic, Premium or Enterprise (set by billing, or `linkaudit-server plan set`). */
  paid_plan_id: Generated<string>;
  created_at: Timestamp;
  /** Set by an administrator: sign-in refused, scans stopped, nothing deleted. */
  disabled_at: ColumnType<Date | string | null, Date | null | undefined, Date | null>;
  last_sign_in_at: ColumnType<Date | string | null, Date | null | undefined, Date | null>;
}

/** A password sign-in; an account may have none (external logins only). */
export interface LocalLoginsTable {
  user_id: string;
  /** argon2id PHC string. */
  password_hash: string;
  updated_at: Timestamp;
}

/** A sign-in through an external provider: the provider's subject for that person. */
export interface ExternalLoginsTable {
  provider: string;
  provider_key: string;
  user_id: string;
  created_at: Timestamp;
}

/** Single-use codes mailed to the user; only their SHA-256 is kept. */
export interface AccountCodesTable {
  id: string;
  user_id: string;
  purpose: AccountCodePurpose;
  code_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}
export type AccountCodePurpose = 'confirm-email' | 'reset-password';

/** Access tokens signed out before their expiry (logout); rows go once the token has expired. */
export interface RevokedTokensTable {
  token_id: string;
  expires_at: Timestamp;
}

/** An external sign-in under way: what the provider's redirect back must match (OIDC + PKCE). */
export interface ExternalLoginRequestsTable {
  /** The `state` sent to the provider. */
  id: string;
  provider: string;
  code_verifier: string;
  nonce: string;
  /** Where the browser goes afterwards, on this site. */
  redirect_uri: string;
  /** The web app's own state, handed back in the redirect. */
  client_state: string | null;
  expires_at: Timestamp;
}

/** An external identity that signed in but has no account yet (SPEC /registerExternal). */
export interface PendingExternalLoginsTable {
  id: string;
  provider: string;
  provider_key: string;
  email: string | null;
  email_verified: Flag;
  first_name: string | null;
  last_name: string | null;
  expires_at: Timestamp;
}

/** Failed password sign-ins of one address (any, registered or not): the per-account backoff. */
export interface SignInFailuresTable {
  normalized_email: string;
  /** Failures in a row; a successful sign-in deletes the row. */
  failures: number;
  last_failure_at: Timestamp;
}

/** Failed sign-ins in a row per account and client address (issue 36). */
export interface SignInAddressFailuresTable {
  normalized_email: string;
  client_address: string;
  failures: number;
  last_failure_at: Timestamp;
}

export interface AccountsTables {
  users: UsersTable;
  local_logins: LocalLoginsTable;
  external_logins: ExternalLoginsTable;
  account_codes: AccountCodesTable;
  revoked_tokens: RevokedTokensTable;
  external_login_requests: ExternalLoginRequestsTable;
  pending_external_logins: PendingExternalLoginsTable;
  sign_in_failures: SignInFailuresTable;
  sign_in_address_failures: SignInAddressFailuresTable;
}
