import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { accountLanguageSchema } from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { MailMessage, Mailer } from '../mail/mail.service.js';
import { renderMail } from '../mail/mail.templates.js';
import { findUsableCodes, insertCode, useCodes, type User } from './accounts.repository.js';
import type { AccountCodePurpose } from './accounts.table.js';
import { codeMatches, hashCode, newCode } from './one-time-codes.js';

export interface AccountCodeDeps {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'auth'>;
}

/**
 * The single-use codes we mail: confirmation (`/confirmemail?code&userId`) and password reset
 * (`/resetpassword?email&code`), links to the web routes of SPEC §2 on PUBLIC_URL.
 */
export class AccountCodes {
  constructor(private readonly deps: AccountCodeDeps) {}

  async mailConfirmation(user: User): Promise<void> {
    await this.#issueAndMail(user, 'confirm-email', (code) => {
      const query = new URLSearchParams({ code, userId: user.id });
      return `/confirmemail?${query.toString()}`;
    });
  }

  async mailPasswordReset(user: User): Promise<void> {
    await this.#issueAndMail(user, 'reset-password', (code) => {
      const query = new URLSearchParams({ email: user.email, code });
      return `/resetpassword?${query.toString()}`;
    });
  }

  /**
   * A new code and the mail carrying it, in one transaction (issue 36): the code exists exactly
   * when its mail is in the outbox, which sends it whatever SMTP or a restart does meanwhile.
   */
  async #issueAndMail(
    user: User,
    purpose: AccountCodePurpose,
    pathWith: (code: string) => string,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const code = await this.#issue(trx, user, purpose);
      await this.deps.mailer.enqueue(this.#mail(user, purpose, pathWith(code)), trx);
    });
    this.deps.mailer.wake();
  }

  /**
   * Uses a mailed code: it must match (compared in constant time), be unused and unexpired.
   * Using it retires the user's other codes of that purpose; `apply` runs in the same transaction.
   */
  async redeem(
    userId: string,
    purpose: AccountCodePurpose,
    code: string,
    apply: (trx: Transaction<Database>, now: Date) => Promise<void>,
  ): Promise<boolean> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const candidates = await findUsableCodes(db, userId, purpose, now);
    const match = candidates.find((candidate) => codeMatches(code, candidate.codeHash));
    if (!match) return false;
    return db.transaction().execute(async (trx) => {
      if (!(await useCodes(trx, userId, purpose, match.id, now))) return false;
      await apply(trx, now);
      return true;
    });
  }

  async #issue(db: Kysely<Database>, user: User, purpose: AccountCodePurpose): Promise<string> {
    const now = this.deps.clock.now();
    const code = newCode();
    await insertCode(db, {
      id: randomUUID(),
      userId: user.id,
      purpose,
      codeHash: hashCode(code),
      expiresAt: new Date(now.getTime() + this.#lifetime(purpose) * 1000),
      createdAt: now,
    });
    return code;
  }

  #lifetime(purpose: AccountCodePurpose): number {
    const { auth } = this.deps.config;
    return purpose === 'confirm-email'
      ? auth.emailConfirmationTtlSeconds
      : auth.passwordResetTtlSeconds;
  }

  /** The mail to the user in their language (the answer never waits for SMTP: the outbox sends). */
  #mail(user: User, purpose: AccountCodePurpose, path: string): MailMessage {
    const language = accountLanguageSchema.safeParse(user.language);
    const link = `${this.deps.config.publicUrl}${path}`;
    const rendered = renderMail(purpose, language.success ? language.data : 'en', {
      firstName: user.firstName,
      link,
      validForSeconds: this.#lifetime(purpose),
    });
    return { to: user.email, ...rendered, link };
  }
}
