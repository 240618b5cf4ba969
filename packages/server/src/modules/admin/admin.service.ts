import type { Kysely } from 'kysely';
import {
  adminActions,
  adminAuditQuerySchema,
  adminMessages,
  adminScanQuerySchema,
  adminUserQuerySchema,
  planOf,
  type AdminAuditPage,
  type AdminHealth,
  type AdminScanPage,
  type AdminUser,
  type AdminUserPage,
  type AdminOutboxPage,
  type AdminOutboxQuery,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { toBoolean, toDate, toOptionalDate } from '../../db/values.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError, parseRequest } from '../../plugins/error-handler.js';
import type { AccountService } from '../accounts/accounts.service.js';
import type { MailFailures } from '../mail/mail.service.js';
import type { ScanService } from '../scans/scans.service.js';
import { toAdminScan } from '../scans/scans.service.js';
import type { ScheduleService } from '../schedules/schedules.service.js';
import type { OutboxService } from '../outbox/outbox.service.js';
import {
  adminScanPage,
  adminUserPage,
  auditPage,
  healthFigures,
  insertAudit,
  type AuditRecord,
} from './admin.repository.js';

export interface AdminServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  scans: ScanService;
  accounts: AccountService;
  schedules: ScheduleService;
  /** This process's mail failures (the outbox or SMTP). */
  mailFailures: () => MailFailures;
  /** Outgoing messages (mail) for the Mail tab and the health figures (issue 36). */
  outbox: Pick<OutboxService, 'page' | 'counts'>;
}

const day = 24 * 3600 * 1000;

/**
 * The operator's side (issue 24): every user's scans and accounts, their changes written to the
 * audit log (who, when, what, before and after), and health figures.
 */
export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  async scanPage(query: unknown): Promise<AdminScanPage> {
    const parsed = parseRequest(adminScanQuerySchema, query);
    const [page, queue] = await Promise.all([
      adminScanPage(this.deps.db, parsed),
      this.deps.scans.queueOrder(),
    ]);
    return { total: page.total, rows: page.rows.map((row) => toAdminScan(row, queue)) };
  }

  async setFailed(admin: SignedInUser, id: string): Promise<void> {
    const change = await this.deps.scans.adminSetFailed(admin, id);
    await this.audit(admin, adminActions.setFailed, 'scan', id, change.before, change.after);
  }

  /** Requeue, with edited settings when the body has them (audited as an edit of settings too). */
  async requeue(admin: SignedInUser, body: unknown) {
    const change = await this.deps.scans.adminRequeue(admin, body);
    const edited = typeof body === 'object' && body !== null && 'scanSettings' in body;
    const action = edited ? adminActions.editSettings : adminActions.requeue;
    await this.audit(admin, action, 'scan', change.after.id, change.before, change.after);
    return change.after;
  }

  async userPage(query: unknown): Promise<AdminUserPage> {
    const parsed = parseRequest(adminUserQuerySchema, query);
    // Credit is counted per user from their billing period, not a column to sort by in SQL.
    const sortBy = parsed.sortBy === 'creditUsed' ? 'created' : parsed.sortBy;
    const page = await adminUserPage(this.deps.db, { ...parsed, sortBy });
    const rows = await Promise.all(
      page.rows.map(async (row): Promise<AdminUser> => {
        const planId = planOf(row.paid_plan_id).id;
        const credit = await this.deps.scans.creditOf({ id: row.id, planId });
        const adminByConfig = this.deps.accounts.adminByConfig(row.email);
        return {
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          paidPlanId: planId,
          subscriptionStatus: row.subscription_status ?? null,
          trialEnd: toOptionalDate(row.trial_end ?? null)?.toISOString() ?? null,
          cancelAtPeriodEnd: toBoolean(row.cancel_at_period_end ?? false),
          creditUsed: credit.used,
          creditLimit: credit.limit,
          role: row.role === 'admin' || adminByConfig ? 'admin' : 'user',
          adminByConfig,
          created: toDate(row.created_at).toISOString(),
          lastSignIn: toOptionalDate(row.last_sign_in_at ?? null)?.toISOString() ?? null,
          disabled: row.disabled_at !== null && row.disabled_at !== undefined,
        };
      }),
    );
    return { total: page.total, rows };
  }

  /** Grants or revokes the stored admin role; ADMIN_EMAILS and one's own role are left alone. */
  async setAdmin(admin: SignedInUser, userId: string, makeAdmin: boolean): Promise<void> {
    const user = await this.#user(userId);
    if (!makeAdmin && user.id === admin.id) throw new HttpError(409, adminMessages.ownAdminRole);
    if (!makeAdmin && this.deps.accounts.adminByConfig(user.email)) {
      throw new HttpError(409, adminMessages.configAdmin);
    }
    await this.deps.accounts.setAdmin(user.email, makeAdmin);
    const action = makeAdmin ? adminActions.grantAdmin : adminActions.revokeAdmin;
    await this.audit(
      admin,
      action,
      'user',
      user.id,
      { role: user.role },
      {
        role: makeAdmin ? 'admin' : 'user',
      },
    );
  }

  /**
   * Disables an account (sign-in refused, tokens dead, scans stopped, schedules paused; nothing
   * deleted) or enables it again (its schedules stay paused until the owner resumes them).
   */
  async setDisabled(admin: SignedInUser, userId: string, disabled: boolean): Promise<void> {
    const user = await this.#user(userId);
    if (disabled && user.id === admin.id) throw new HttpError(409, adminMessages.ownAccount);
    await this.deps.accounts.setDisabled(user.id, disabled);
    let stoppedScans = 0;
    let pausedSchedules = 0;
    if (disabled) {
      stoppedScans = await this.deps.scans.stopAllOf(user.id);
      pausedSchedules = await this.deps.schedules.pauseBeyondAllowance({
        id: user.id,
        planId: 'Free',
      });
    }
    await this.audit(
      admin,
      disabled ? adminActions.disable : adminActions.enable,
      'user',
      user.id,
      { disabled: user.disabledAt !== null },
      { disabled, stoppedScans, pausedSchedules },
    );
  }

  async auditPage(query: unknown): Promise<AdminAuditPage> {
    const parsed = parseRequest(adminAuditQuerySchema, query);
    const page = await auditPage(this.deps.db, parsed);
    return {
      total: page.total,
      rows: page.rows.map((row) => ({
        id: row.id,
        adminId: row.admin_id,
        adminEmail: row.admin_email,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        before: row.before_json === null ? null : (JSON.parse(row.before_json) as unknown),
        after: row.after_json === null ? null : (JSON.parse(row.after_json) as unknown),
        at: toDate(row.created_at).toISOString(),
      })),
    };
  }

  async health(): Promise<AdminHealth> {
    const now = new Date();
    const [figures, outbox] = await Promise.all([
      healthFigures(this.deps.db, new Date(now.getTime() - day), now),
      this.deps.outbox.counts(),
    ]);
    const mail = this.deps.mailFailures();
    return {
      ...figures,
      outboxPending: outbox.pending,
      outboxFailed: outbox.failed,
      mailFailures: mail.count,
      lastMailFailure: mail.last?.toISOString() ?? null,
    };
  }

  /** The outgoing messages (mail) with their state, attempts and last error, newest first. */
  outboxPage(query: AdminOutboxQuery): Promise<AdminOutboxPage> {
    return this.deps.outbox.page(query);
  }

  /** Writes one audit entry (also for the voucher routes of the billing module). */
  async audit(
    admin: SignedInUser,
    action: string,
    targetType: AuditRecord['targetType'],
    targetId: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await insertAudit(this.deps.db, {
      adminId: admin.id,
      adminEmail: admin.email,
      action,
      targetType,
      targetId,
      before,
      after,
      at: this.deps.clock.now(),
    });
  }

  async #user(userId: string) {
    const user = await this.deps.accounts.findUser(userId);
    if (!user) throw new HttpError(404, adminMessages.notFoundUser);
    return user;
  }
}
