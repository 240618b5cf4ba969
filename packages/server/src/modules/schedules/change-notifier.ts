import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { accountLanguageSchema } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toBoolean, toDate } from '../../db/values.js';
import type { AccountService } from '../accounts/accounts.service.js';
import type { Mailer } from '../mail/mail.service.js';
import type { ScanService } from '../scans/scans.service.js';
import { brokenLinkChanges, renderChangeMail } from './change-mail.js';
import {
  brokenTargetUrls,
  comparableStatuses,
  findSchedule,
  previousComparableRun,
} from './schedules.repository.js';

export interface ChangeNotifierDeps {
  db: Kysely<Database>;
  /** The finished run. */
  scans: Pick<ScanService, 'find'>;
  /** The schedule's owner: mail address, name and language. */
  accounts: Pick<AccountService, 'findUser'>;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * After a scheduled run finishes: when its broken links differ from the previous whole run's,
 * the schedule's owner gets a mail saying what changed (unless the schedule says not to).
 */
export class ChangeNotifier {
  constructor(private readonly deps: ChangeNotifierDeps) {}

  /** Answers whether a mail was queued; never throws (a scan's outcome must not depend on mail). */
  async afterRun(scanId: string): Promise<boolean> {
    try {
      return await this.#notify(scanId);
    } catch (error) {
      this.deps.log.error({ err: error, scanId }, 'schedule change mail failed');
      return false;
    }
  }

  async #notify(scanId: string): Promise<boolean> {
    const { db } = this.deps;
    const scan = await this.deps.scans.find(scanId);
    if (!scan?.source_schedule_id || !scan.completed_at) return false;
    if (!(comparableStatuses as readonly number[]).includes(scan.status)) return false;
    const schedule = await findSchedule(db, scan.source_schedule_id);
    if (!schedule || !toBoolean(schedule.notify_on_change)) return false;
    const previousId = await previousComparableRun(
      db,
      schedule.id,
      scan.id,
      toDate(scan.completed_at),
    );
    if (!previousId) return false;
    const owner = { userId: schedule.user_id, site: scan.url };
    const [previous, current] = await Promise.all([
      brokenTargetUrls(db, previousId, owner),
      brokenTargetUrls(db, scan.id, owner),
    ]);
    const changes = brokenLinkChanges(previous, current);
    if (changes.appeared.length === 0 && changes.disappeared.length === 0) return false;
    const user = await this.deps.accounts.findUser(schedule.user_id);
    if (!user) return false;
    const language = accountLanguageSchema.safeParse(user.language);
    const reportLink = `${this.deps.publicUrl}/report/${scan.id}`;
    const rendered = renderChangeMail(language.success ? language.data : 'en', {
      firstName: user.firstName,
      url: schedule.url,
      changes,
      brokenNow: current.length,
      reportLink,
      scheduleLink: `${this.deps.publicUrl}/schedule`,
    });
    // Into the outbox: the worker that called this goes on to its next scan without waiting for
    // the mail server; the outbox worker sends it, retrying through an outage.
    await this.deps.mailer.enqueue({ to: user.email, ...rendered, link: reportLink });
    return true;
  }
}
