import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { ScanStatus, type adminScanQuerySchema, type adminUserQuerySchema } from '@linkaudit/core';
import type { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { schedulerTickKey } from '../../db/server-meta-keys.js';
import { toDate } from '../../db/values.js';

/**
 * The operator's reads (every user's scans and accounts, health figures) and the audit log. The
 * only module that reads across owners: every route here is behind requireAdmin.
 */

type Db = Kysely<Database>;

/** `%text%` for LIKE, with LIKE's own characters taken literally. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const scanSortColumns = {
  dateCreated: 'scans.created_at',
  status: 'scans.status',
  priority: 'scans.priority',
  url: 'scans.url',
  owner: 'users.email',
  attempts: 'scans.attempts',
  jobStarted: 'scans.started_at',
  duration: 'scans.duration_ms',
} as const;

/** One page of every user's scans (trash left out) with the owner's address, and the total. */
export async function adminScanPage(db: Db, query: z.infer<typeof adminScanQuerySchema>) {
  let base = db
    .selectFrom('scans')
    .innerJoin('users', 'users.id', 'scans.user_id')
    .where('scans.trashed_at', 'is', null);
  if (query.status) {
    base = base.where('scans.status', 'in', query.status.split(',').map(Number));
  }
  if (query.owner) {
    base = base.where(sql<boolean>`lower(users.email) like ${containing(query.owner)} escape '\\'`);
  }
  if (query.url) {
    base = base.where(sql<boolean>`lower(scans.url) like ${containing(query.url)} escape '\\'`);
  }
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    base
      .selectAll('scans')
      .select('users.email as owner_email')
      .orderBy(scanSortColumns[query.sortBy], query.sortOrder)
      .orderBy('scans.id', query.sortOrder)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(count.count), rows };
}

const userSortColumns = {
  created: 'users.created_at',
  email: 'users.normalized_email',
  lastSignIn: 'users.last_sign_in_at',
  plan: 'users.paid_plan_id',
} as const;

/** One page of accounts with their billing state, and the total. */
export async function adminUserPage(
  db: Db,
  query: Omit<z.infer<typeof adminUserQuerySchema>, 'sortBy'> & {
    sortBy: keyof typeof userSortColumns;
  },
) {
  let base = db
    .selectFrom('users')
    .leftJoin('billing_accounts', 'billing_accounts.user_id', 'users.id')
    // The server's own accounts (the sample report's owner) have no address.
    .where('users.normalized_email', 'like', '%@%');
  if (query.search) {
    const pattern = containing(query.search);
    base = base.where(
      sql<boolean>`(lower(users.email) like ${pattern} escape '\\' or lower(users.first_name || ' ' || users.last_name) like ${pattern} escape '\\')`,
    );
  }
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    base
      .selectAll('users')
      .select([
        'billing_accounts.status as subscription_status',
        'billing_accounts.trial_end',
        'billing_accounts.cancel_at_period_end',
      ])
      .orderBy(userSortColumns[query.sortBy], query.sortOrder)
      .orderBy('users.id', query.sortOrder)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(count.count), rows };
}

export interface AuditRecord {
  adminId: string;
  adminEmail: string;
  action: string;
  targetType: 'scan' | 'user' | 'voucher';
  targetId: string;
  before: unknown;
  after: unknown;
  at: Date;
}

export async function insertAudit(db: Db, record: AuditRecord): Promise<void> {
  await db
    .insertInto('admin_audit')
    .values({
      id: randomUUID(),
      admin_id: record.adminId,
      admin_email: record.adminEmail,
      action: record.action,
      target_type: record.targetType,
      target_id: record.targetId,
      before_json: record.before === undefined ? null : JSON.stringify(record.before),
      after_json: record.after === undefined ? null : JSON.stringify(record.after),
      created_at: record.at,
    })
    .execute();
}

/** Newest first; one target's entries when `target` is given. */
export async function auditPage(
  db: Db,
  query: { page: number; pageSize: number; target?: string | undefined },
) {
  let base = db.selectFrom('admin_audit');
  if (query.target) base = base.where('target_id', '=', query.target);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(count.count), rows };
}

/** The health figures that live in the database. */
export async function healthFigures(db: Db, since: Date, now: Date) {
  const [byStatus, byWorker, leaseEvents, adminRequeues, tick, queue] = await Promise.all([
    db
      .selectFrom('scans')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('trashed_at', 'is', null)
      .groupBy('status')
      .orderBy('status')
      .execute(),
    db
      .selectFrom('scans')
      .select(['lease_owner', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', [
        ScanStatus.InProgress,
        ScanStatus.RuleChecking,
        ScanStatus.Finalizing,
        ScanStatus.Cancelling,
      ])
      .where('lease_owner', 'is not', null)
      .groupBy('lease_owner')
      .orderBy('lease_owner')
      .execute(),
    db
      .selectFrom('scan_lease_events')
      .select(['kind', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('at', '>=', since)
      .groupBy('kind')
      .execute(),
    db
      .selectFrom('admin_audit')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('action', '=', 'scan.requeue')
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('server_meta')
      .select('value')
      .where('key', '=', schedulerTickKey)
      .executeTakeFirst(),
    queueFigures(db, now),
  ]);
  const events = (kind: string) => Number(leaseEvents.find((row) => row.kind === kind)?.count ?? 0);
  return {
    queueDepth: byStatus.map((row) => ({ status: row.status, count: Number(row.count) })),
    runningByWorker: byWorker.map((row) => ({
      worker: row.lease_owner ?? '',
      count: Number(row.count),
    })),
    leaseExpiries24h: events('expired'),
    requeues24h: events('requeued') + Number(adminRequeues.count),
    schedulerLastTick: tick?.value ?? null,
    ...queue,
  };
}

/** The queue's age (its oldest scan, by the scans_queue index) and the retries still waiting. */
async function queueFigures(db: Db, now: Date) {
  const [oldest, waiting] = await Promise.all([
    db
      .selectFrom('scans')
      .select((eb) => eb.fn.min('created_at').as('created_at'))
      .where('status', '=', ScanStatus.Queued)
      .where('trashed_at', 'is', null)
      .executeTakeFirst(),
    db
      .selectFrom('scans')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', ScanStatus.Queued)
      .where('not_before', '>', now)
      .executeTakeFirstOrThrow(),
  ]);
  const created = oldest?.created_at;
  return {
    oldestQueuedAt: created ? toDate(created).toISOString() : null,
    waitingForRetry: Number(waiting.count),
  };
}
