import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  accountLanguageSchema,
  accountMessages,
  adminMessages,
  localLoginProvider,
  planOf,
  signInWaitMessage,
  type AccountLanguage,
  type AccountRole,
  type ChangePasswordRequest,
  type ForgotPasswordRequest,
  type PlanId,
  type RegisterRequest,
  type ResetPasswordRequest,
  type SignInRequest,
  type TokenResponse,
  type UserInfo,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { HttpError, invalidFields, OAuthError } from '../../plugins/error-handler.js';
import type { Credential, SignedInUser } from '../../plugins/authentication.js';
import type { Mailer } from '../mail/mail.service.js';
import type { AccessTokenClaims, AccessTokens } from './access-tokens.js';
import { AccountCodes } from './account-codes.js';
import { mailAccountNotice, type AccountNotice } from './account-notices.js';
import {
  findPasswordHash,
  findUserByEmail,
  findUserById,
  findUserForToken,
  insertSystemUser,
  insertUser,
  markEmailConfirmed,
  normalizeEmail,
  raiseTokenVersion,
  recordSignIn,
  revokeToken,
  setPasswordHash,
  setUserPlanById,
  setUserDisabled,
  setUserRole,
  type SystemUser,
  type User,
} from './accounts.repository.js';
import { findPendingExternalLogin } from './external-logins.repository.js';
import { hashPassword, verifyDecoyPassword, verifyPassword } from './passwords.js';
import { clearSignInFailures, recordSignInFailure, signInWaitSeconds } from './sign-in-backoff.js';

export interface AccountDeps {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'auth'>;
  tokens: AccessTokens;
  /**
   * The user's plan state from billing (userInfo's paidPlanId, trial, cancellation, failed
   * payment …); without it every account reads as on its stored plan with nothing billed.
   */
  planState?: (userId: string) => Promise<PlanState>;
}

/** userInfo's billing fields (SPEC §3 User info). */
export type PlanState = Pick<
  UserInfo,
  | 'paymentFailed'
  | 'paidPlanId'
  | 'cancelAtPeriodEnd'
  | 'daysOfTrialLeft'
  | 'canceledAt'
  | 'paymentGatewaySubscriptionId'
  | 'voucher'
>;

/** A new account and how it signs in (a password, or an external login). */
export interface NewAccount {
  email: string;
  firstName: string;
  lastName: string;
  language: AccountLanguage;
  /** The address is already proven (a provider vouched for it): no confirmation mail. */
  emailConfirmed: boolean;
  /** The field a taken address is reported on (`username` or `userName`). */
  emailField: string;
  addLogin(trx: Transaction<Database>, userId: string, now: Date): Promise<void>;
}

/** Nothing billed: an external sign-in not yet registered, or a server without billing. */
const freePlan = {
  paymentFailed: false,
  paidPlanId: 'Free',
  cancelAtPeriodEnd: false,
  daysOfTrialLeft: 0,
  canceledAt: null,
  paymentGatewaySubscriptionId: null,
  voucher: null,
} as const;

/** Local accounts: registration, confirmation, password sign-in, passwords, tokens, user info. */
export class AccountService {
  /** The mailed confirmation and reset codes. */
  readonly #codes: AccountCodes;

  constructor(private readonly deps: AccountDeps) {
    this.#codes = new AccountCodes(deps);
  }

  /**
   * Answers the same whether or not the address has an account, so registering tells nobody
   * which addresses do (issue 36): a new address gets its account and a confirmation mail, a
   * registered one a mail to its owner instead, and nothing changes. The password is hashed
   * either way, so the time taken tells nothing either.
   */
  async register(body: RegisterRequest, language: AccountLanguage): Promise<{ userName: string }> {
    const passwordHash = await hashPassword(body.password);
    const email = body.username.trim();
    const existing = await findUserByEmail(this.deps.db, email);
    const created = existing
      ? 'taken'
      : await this.#insertAccount({
          email,
          firstName: body.firstName,
          lastName: body.lastName,
          language,
          emailConfirmed: false,
          emailField: 'username',
          addLogin: (trx, userId, now) => setPasswordHash(trx, userId, passwordHash, now),
        });
    if (created === 'taken') {
      // Registered before this request, or by a concurrent one a moment ago.
      const owner = existing ?? (await findUserByEmail(this.deps.db, email));
      if (owner) this.#notify(owner, 'already-registered');
    } else {
      await this.#codes.mailConfirmation(created);
    }
    return { userName: email };
  }

  #notify(user: User, notice: AccountNotice): void {
    mailAccountNotice(
      { mailer: this.deps.mailer, publicUrl: this.deps.config.publicUrl },
      user,
      notice,
    );
  }

  /** Creates the user and its first login together; mails a confirmation link when needed. */
  async createAccount(account: NewAccount): Promise<User> {
    const user = await this.#insertAccount(account);
    if (user === 'taken') {
      throw invalidFields({ [account.emailField]: [accountMessages.emailTaken] });
    }
    if (!account.emailConfirmed) await this.#codes.mailConfirmation(user);
    return user;
  }

  /** The new user with its first login, or 'taken' when the address already has an account. */
  async #insertAccount(account: NewAccount): Promise<User | 'taken'> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const id = randomUUID();
    const user = await db.transaction().execute(async (trx) => {
      const inserted = await insertUser(trx, {
        id,
        email: account.email.trim(),
        firstName: account.firstName,
        lastName: account.lastName,
        language: account.language,
        emailConfirmedAt: account.emailConfirmed ? now : null,
        createdAt: now,
      });
      if (inserted === 'duplicate') return 'taken';
      await account.addLogin(trx, id, now);
      return findUserById(trx, id);
    });
    if (!user) throw new Error(`user ${id} vanished after its creation`);
    return user;
  }

  async confirmEmail(query: { code: string; userId: string }): Promise<{ userName: string }> {
    const user = await findUserById(this.deps.db, query.userId);
    const redeemed =
      user &&
      (await this.#codes.redeem(user.id, 'confirm-email', query.code, (trx, now) =>
        markEmailConfirmed(trx, user.id, now),
      ));
    if (!user || !redeemed) throw new HttpError(400, accountMessages.invalidConfirmationLink);
    return { userName: user.email };
  }

  /** POST /token, grant_type=password, from `clientAddress` (the backoff's second key). */
  async signIn(form: SignInRequest, clientAddress: string): Promise<TokenResponse> {
    const { db, clock } = this.deps;
    const address = clientAddress.slice(0, 64);
    // Checked before the password: while an address waits, not even the right password is tried.
    const wait = await signInWaitSeconds(db, form.username, address, clock.now());
    if (wait > 0) {
      throw new OAuthError('invalid_grant', signInWaitMessage(wait), 429, wait);
    }
    const user = await findUserByEmail(db, form.username);
    const storedHash = user && (await findPasswordHash(db, user.id));
    // Without a user or a password the work is the same, so timing tells nothing.
    const valid = storedHash
      ? await verifyPassword(storedHash, form.password)
      : await verifyDecoyPassword(form.password);
    if (!user || !valid) {
      const burst = await recordSignInFailure(db, form.username, address, clock.now());
      if (burst && user) this.#notify(user, 'sign-in-failures');
      throw new OAuthError('invalid_grant', accountMessages.invalidGrant);
    }
    await clearSignInFailures(db, form.username);
    // Told only to whoever knows the password, so it says nothing about other addresses.
    if (user.disabledAt) throw new OAuthError('invalid_grant', adminMessages.accountDisabled);
    return this.issueToken(user, localLoginProvider, this.lifetime(form.rememberMe ?? false));
  }

  async issueToken(
    user: User,
    loginProvider: string,
    lifetimeSeconds: number,
  ): Promise<TokenResponse> {
    if (user.disabledAt) throw new HttpError(403, adminMessages.accountDisabled);
    await recordSignIn(this.deps.db, user.id, this.deps.clock.now());
    const issued = await this.deps.tokens.issueAccess(
      { userId: user.id, tokenVersion: user.tokenVersion, loginProvider },
      lifetimeSeconds,
    );
    return {
      access_token: issued.token,
      token_type: 'bearer',
      expires_in: lifetimeSeconds,
      userName: user.email,
      '.issued': issued.issuedAt.toUTCString(),
      '.expires': issued.expiresAt.toUTCString(),
    };
  }

  lifetime(rememberMe: boolean): number {
    const { auth } = this.deps.config;
    return rememberMe ? auth.rememberMeTokenTtlSeconds : auth.accessTokenTtlSeconds;
  }

  /** The bearer token of a request, checked against the user's token version and sign-outs. */
  async authenticate(bearerToken: string): Promise<Credential | null> {
    const { db, tokens, clock } = this.deps;
    const verified = await tokens.verify(bearerToken);
    if (!verified) return null;
    if (verified.kind === 'external') {
      const pending = await findPendingExternalLogin(db, verified.pendingLoginId, clock.now());
      if (!pending) return null;
      const { id, expiresAt: _expiresAt, ...identity } = pending;
      return { kind: 'external', signIn: { pendingLoginId: id, ...identity } };
    }
    const found = await findUserForToken(db, verified.userId, verified.tokenId);
    if (!found || found.revoked || found.user.tokenVersion !== verified.tokenVersion) return null;
    // A disabled account's tokens stop working at once (the web app then signs it out).
    if (found.user.disabledAt) return null;
    return { kind: 'user', user: this.signedInUser(found.user, verified) };
  }

  private signedInUser(user: User, token: AccessTokenClaims): SignedInUser {
    const language = accountLanguageSchema.safeParse(user.language);
    return {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      language: language.success ? language.data : 'en',
      roles: this.roles(user),
      emailConfirmed: user.emailConfirmedAt !== null,
      planId: planOf(user.paidPlanId).id,
      loginProvider: token.loginProvider,
      tokenId: token.tokenId,
      tokenExpiresAt: token.expiresAt,
    };
  }

  /** Stored role, or ADMIN_EMAILS: removing an address from the list takes its admin role away. */
  private roles(user: User): AccountRole[] {
    const listed = this.deps.config.auth.adminEmails.includes(normalizeEmail(user.email));
    return user.role === 'admin' || listed ? ['user', 'admin'] : ['user'];
  }

  async userInfo(credential: Credential): Promise<UserInfo> {
    if (credential.kind === 'external') {
      const { signIn } = credential;
      return {
        userName: signIn.email ?? '',
        email: signIn.email ?? '',
        firstName: signIn.firstName ?? '',
        lastName: signIn.lastName ?? '',
        roles: [],
        language: 'en',
        emailConfirmed: signIn.emailVerified,
        hasRegistered: false,
        loginProvider: signIn.provider,
        ...freePlan,
      };
    }
    const { user } = credential;
    return {
      userName: user.email,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      roles: user.roles,
      language: user.language,
      emailConfirmed: user.emailConfirmed,
      hasRegistered: true,
      loginProvider: user.loginProvider,
      ...(this.deps.planState
        ? await this.deps.planState(user.id)
        : { ...freePlan, paidPlanId: user.planId }),
    };
  }

  /** Signs this token out; the user's other sessions stay signed in. */
  async logout(user: SignedInUser): Promise<void> {
    await revokeToken(this.deps.db, user.tokenId, user.tokenExpiresAt, this.deps.clock.now());
  }

  /** Mails a reset link when the address is registered; the answer is the same either way. */
  async forgotPassword(body: ForgotPasswordRequest): Promise<void> {
    const user = await findUserByEmail(this.deps.db, body.email);
    if (!user) return;
    await this.#codes.mailPasswordReset(user);
  }

  /**
   * Sets a new password with a mailed code. It also proves the address, and signs out every
   * session, since whoever asked may not have known the old password.
   */
  async resetPassword(body: ResetPasswordRequest): Promise<void> {
    const user = await findUserByEmail(this.deps.db, body.email);
    const passwordHash = await hashPassword(body.password);
    const redeemed =
      user &&
      (await this.#codes.redeem(user.id, 'reset-password', body.code, async (trx, now) => {
        await setPasswordHash(trx, user.id, passwordHash, now);
        await markEmailConfirmed(trx, user.id, now);
        await raiseTokenVersion(trx, user.id);
      }));
    if (!redeemed) throw new HttpError(400, accountMessages.invalidResetLink);
  }

  /**
   * Changes the password (the old one is required when there is one) or sets the first one of
   * an account that only had external logins. Other sessions are signed out; this one gets a
   * new token, as long-lived as the one it replaces.
   */
  async changePassword(
    signedIn: SignedInUser,
    body: ChangePasswordRequest,
  ): Promise<TokenResponse> {
    const { db, clock } = this.deps;
    const storedHash = await findPasswordHash(db, signedIn.id);
    if (storedHash) {
      if (!body.oldPassword)
        throw invalidFields({ oldPassword: [accountMessages.oldPasswordRequired] });
      if (!(await verifyPassword(storedHash, body.oldPassword))) {
        throw invalidFields({ oldPassword: [accountMessages.oldPasswordIncorrect] });
      }
    }
    const passwordHash = await hashPassword(body.newPassword);
    await db.transaction().execute(async (trx) => {
      await setPasswordHash(trx, signedIn.id, passwordHash, clock.now());
      await raiseTokenVersion(trx, signedIn.id);
    });
    const user = await findUserById(db, signedIn.id);
    if (!user) throw new HttpError(401, accountMessages.unauthorized);
    const remaining = Math.round(
      (signedIn.tokenExpiresAt.getTime() - clock.now().getTime()) / 1000,
    );
    return this.issueToken(user, signedIn.loginProvider, Math.max(remaining, 60));
  }

  /** An account by id, for the server's own modules (a schedule's owner); undefined when gone. */
  findUser(id: string): Promise<User | undefined> {
    return findUserById(this.deps.db, id);
  }

  /** Puts the user on the plan in force (billing, as the subscription changes). */
  setPlan(userId: string, planId: PlanId): Promise<void> {
    return setUserPlanById(this.deps.db, userId, planId);
  }

  /** `linkaudit-server admin grant|revoke <email>`; false when no account has that address. */
  setAdmin(email: string, admin: boolean): Promise<boolean> {
    return setUserRole(this.deps.db, email, admin ? 'admin' : 'user');
  }

  /** Admin: a disabled account cannot sign in and its tokens stop working; nothing is deleted. */
  setDisabled(userId: string, disabled: boolean): Promise<boolean> {
    return setUserDisabled(this.deps.db, userId, disabled ? this.deps.clock.now() : null);
  }

  /** Whether ADMIN_EMAILS makes this address an administrator, whatever its stored role. */
  adminByConfig(email: string): boolean {
    return this.deps.config.auth.adminEmails.includes(normalizeEmail(email));
  }
}

/**
 * Creates an account of the server's own once (the sample report's owner), inside the caller's
 * transaction; nobody can sign in as it (no password, an address without @).
 */
export function ensureSystemUser(db: Kysely<Database>, user: SystemUser): Promise<void> {
  return insertSystemUser(db, user);
}
