import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { adminMessages, isFinishedStatus, scanFailureMessages, ScanStatus } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { ScansTable } from './scans.table.js';

/** Scans: rows, queue places, leases and totals. All SQL of the scans table is here. */

export type ScanRow = Selectable<ScansTable>;

export const runningStatuses = [
  ScanStatus.InProgress,
  ScanStatus.RuleChecking,
  ScanStatus.Finalizing,
] as const;
/** SPEC §4's finished statuses (1–4, 10), as the list a query needs. */
const finishedStatuses = Object.values(ScanStatus).filter(isFinishedStatus);

export interface NewScan {
  id: string;
  userId: string;
  url: string;
  priority: number;
  scanType: number;
  settingsJson: string;
  scheduleSettingsJson: string | null;
  enableSchedule: boolean;
  saveScheduleOnly: boolean;
  sourceScheduleId: string | null;
  createdAt: Date;
}

export async function insertScan(db: Kysely<Database>, scan: NewScan): Promise<void> {
  await db
    .insertInto('scans')
    .values({
      id: scan.id,
      user_id: scan.userId,
      url: scan.url,
      priority: scan.priority,
      status: ScanStatus.Queued,
      scan_type: scan.scanType,
      settings_json: scan.settingsJson,
      schedule_settings_json: scan.scheduleSettingsJson,
      enable_schedule: scan.enableSchedule,
      save_schedule_only: scan.saveScheduleOnly,
      source_schedule_id: scan.sourceScheduleId,
      status_code: null,
      log_message: null,
      summary_json: null,
      created_at: scan.createdAt,
      started_at: null,
      completed_at: null,
      lease_owner: null,
      lease_expires_at: null,
      trashed_at: null,
    })
    .execute();
}

/** A scan that is not in the trash, or undefined. */
export async function findScan(db: Kysely<Database>, id: string): Promise<ScanRow | undefined> {
  return db
    .selectFrom('scans')
    .selectAll()
    .where('id', '=', id)
    .where('trashed_at', 'is', null)
    .executeTakeFirst();
}

/** A user's scans (trash left out), newest first; all users' when userId is undefined. */
export async function listScans(
  db: Kysely<Database>,
  userId: string | undefined,
  limit = 1000,
): Promise<ScanRow[]> {
  let query = db.selectFrom('scans').selectAll().where('trashed_at', 'is', null);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function countRunning(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('scans')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('status', 'in', [...runningStatuses, ScanStatus.Cancelling])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The distinct start addresses of the user's kept scans (the trash left out): their websites. */
export async function keptScanUrls(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('scans')
    .select('url')
    .distinct()
    .where('user_id', '=', userId)
    .where('trashed_at', 'is', null)
    .execute();
  return rows.map((row) => row.url);
}

/** Unique URLs checked by the user's scans that finished since `since` (trashed ones count too). */
export async function urlsUsedSince(
  db: Kysely<Database>,
  userId: string,
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom('scans')
    .select((eb) => eb.fn.sum<number | string | null>('unique_links').as('used'))
    .where('user_id', '=', userId)
    .where('status', 'in', [...finishedStatuses])
    .where('completed_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.used ?? 0);
}

/** Moves a scan from one of `from` to `to`; false when it was in none of them (a race lost). */
export async function changeStatus(
  db: Kysely<Database>,
  id: string,
  from: readonly number[],
  to: number,
  extra: Partial<{ completedAt: Date; logMessage: string; leaseOwner: string | null }> = {},
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({
      status: to,
      ...(extra.completedAt ? { completed_at: extra.completedAt } : {}),
      ...(extra.logMessage !== undefined ? { log_message: extra.logMessage } : {}),
      ...(extra.leaseOwner !== undefined ? { lease_owner: extra.leaseOwner } : {}),
    })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves the schedule's runs in status `from` to `to`: a paused schedule's queued run waits (7). */
export async function moveScheduleRuns(
  db: Kysely<Database>,
  scheduleId: string,
  from: number,
  to: number,
): Promise<string[]> {
  const rows = await db
    .updateTable('scans')
    .set({ status: to })
    .where('source_schedule_id', '=', scheduleId)
    .where('status', '=', from)
    .where('trashed_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function trashScan(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable('scans').set({ trashed_at: at }).where('id', '=', id).execute();
}

/**
 * Renews a lease and answers the scan's status (the worker's cancel signal), or undefined when
 * the lease is no longer ours (expired and taken by another worker).
 */
export async function renewLease(
  db: Kysely<Database>,
  id: string,
  owner: string,
  until: Date,
): Promise<number | undefined> {
  const row = await db
    .updateTable('scans')
    .set({ lease_expires_at: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .returning('status')
    .executeTakeFirst();
  return row?.status;
}

/**
 * How a scan whose attempt broke (lost lease, engine exception) is tried again: at most
 * `maxAttempts` starts, each retry waiting `backoffMs` doubled per attempt so far (issue 36).
 */
export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: number;
}

/** A retry waits at most this long, however many attempts came before. */
const maxBackoffMs = 3600_000;

/** When the retry after `attempts` starts may begin: base, 2×base, 4×base … (at most an hour). */
export function retryAt(now: Date, attempts: number, policy: RetryPolicy): Date {
  const delay = Math.min(policy.backoffMs * 2 ** Math.max(0, attempts - 1), maxBackoffMs);
  return new Date(now.getTime() + delay);
}

/**
 * Scans whose worker died (lease expired): back to the queue after a backoff, or Failed after
 * `maxAttempts`; one that was cancelling is Cancelled. Answers the ids touched.
 */
export async function reapExpiredLeases(
  db: Kysely<Database>,
  now: Date,
  policy: RetryPolicy,
): Promise<string[]> {
  return reapLeases(db, { expiredBefore: now }, now, policy);
}

/**
 * The same for the scans leased to these owners, whatever their lease says: a restarted worker
 * takes back at once the scans its previous life held (ScanWorkers.start).
 */
export async function reapLeasesOf(
  db: Kysely<Database>,
  owners: string[],
  now: Date,
  policy: RetryPolicy,
): Promise<string[]> {
  if (owners.length === 0) return [];
  return reapLeases(db, { owners }, now, policy);
}

/** Who holds the lease of each scan under way (or cancelling). */
export async function leaseOwners(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('scans')
    .select('lease_owner')
    .distinct()
    .where('status', 'in', [...runningStatuses, ScanStatus.Cancelling])
    .where('lease_owner', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.lease_owner ? [row.lease_owner] : []));
}

type LeaseFilter = { expiredBefore: Date } | { owners: string[] };

async function reapLeases(
  db: Kysely<Database>,
  filter: LeaseFilter,
  now: Date,
  policy: RetryPolicy,
): Promise<string[]> {
  const leased = (statuses: readonly number[]) => {
    const query = db.updateTable('scans').where('status', 'in', [...statuses]);
    return 'owners' in filter
      ? query.where('lease_owner', 'in', filter.owners)
      : query.where('lease_expires_at', '<', filter.expiredBefore);
  };
  // An administrator's stop whose worker died: requeued or failed as it would have done.
  const stopped = [];
  for (const action of ['requeue', 'fail'] as const) {
    const rows = await leased([ScanStatus.Cancelling])
      .where('stop_action', '=', action)
      .set(action === 'requeue' ? requeuedColumns : failedColumns(now))
      .returning('id')
      .execute();
    stopped.push(...rows);
  }
  const cancelled = await leased([ScanStatus.Cancelling])
    .where('stop_action', 'is', null)
    .set({ status: ScanStatus.Cancelled, lease_owner: null, completed_at: now })
    .returning('id')
    .execute();
  const failed = await leased(runningStatuses)
    .where('attempts', '>=', policy.maxAttempts)
    .set({
      status: ScanStatus.Failed,
      lease_owner: null,
      completed_at: now,
      log_message: scanFailureMessages.workerLost(policy.maxAttempts),
    })
    .returning('id')
    .execute();
  // Each waits by its own attempts: one UPDATE per scan (few: only those whose worker died).
  const requeued = [];
  for (const attempts of await attemptsOfLeased(db, filter, policy.maxAttempts)) {
    const row = await leased(runningStatuses)
      .where('id', '=', attempts.id)
      .where('attempts', '=', attempts.attempts)
      .set({
        status: ScanStatus.Queued,
        lease_owner: null,
        lease_expires_at: null,
        not_before: retryAt(now, attempts.attempts, policy),
      })
      .returning('id')
      .executeTakeFirst();
    if (row) requeued.push(row);
  }
  const reaped = [...stopped, ...cancelled, ...failed, ...requeued];
  const events = [
    ...reaped.map((row) => ({ id: randomUUID(), scan_id: row.id, kind: 'expired', at: now })),
    ...requeued.map((row) => ({ id: randomUUID(), scan_id: row.id, kind: 'requeued', at: now })),
  ];
  if (events.length > 0) await db.insertInto('scan_lease_events').values(events).execute();
  return reaped.map((row) => row.id);
}

/** The running scans a reap takes back to the queue, and how many starts each has had. */
async function attemptsOfLeased(
  db: Kysely<Database>,
  filter: LeaseFilter,
  maxAttempts: number,
): Promise<Array<{ id: string; attempts: number }>> {
  const query = db
    .selectFrom('scans')
    .select(['id', 'attempts'])
    .where('status', 'in', [...runningStatuses])
    .where('attempts', '<', maxAttempts);
  const rows = await (
    'owners' in filter
      ? query.where('lease_owner', 'in', filter.owners)
      : query.where('lease_expires_at', '<', filter.expiredBefore)
  ).execute();
  return rows.map((row) => ({ id: row.id, attempts: Number(row.attempts) }));
}

/**
 * A running attempt that broke on an engine exception: back to the queue until `notBefore`
 * (issue 36), only while `owner` holds it and nobody asked it to stop (a cancel or an
 * administrator's stop then ends it as they say). False when it was not moved.
 */
export async function retryLater(
  db: Kysely<Database>,
  id: string,
  owner: string,
  notBefore: Date,
  logMessage: string,
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({
      status: ScanStatus.Queued,
      lease_owner: null,
      lease_expires_at: null,
      not_before: notBefore,
      log_message: logMessage,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', 'in', [...runningStatuses])
    .where('stop_action', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface ScanTotals {
  totalQueuedLinks: number;
  totalLinks: number;
  uniqueLinks: number;
  badLinks: number;
  uniqueBadLinks: number;
  numPages: number;
  durationMs: number;
  statusCode?: number | null;
}

export async function updateTotals(
  db: Kysely<Database>,
  id: string,
  totals: ScanTotals,
): Promise<void> {
  await db
    .updateTable('scans')
    .set({
      total_queued_links: totals.totalQueuedLinks,
      total_links: totals.totalLinks,
      unique_links: totals.uniqueLinks,
      bad_links: totals.badLinks,
      unique_bad_links: totals.uniqueBadLinks,
      num_pages: totals.numPages,
      duration_ms: Math.round(totals.durationMs),
      ...(totals.statusCode !== undefined ? { status_code: totals.statusCode } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Writes a finished scan's outcome, only while the lease is still ours. */
export async function finishScan(
  db: Kysely<Database>,
  id: string,
  owner: string,
  outcome: { status: number; completedAt: Date; logMessage: string | null; summaryJson: string },
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({
      status: outcome.status,
      completed_at: outcome.completedAt,
      log_message: outcome.logMessage,
      summary_json: outcome.summaryJson,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('stop_action', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What an administrator asked the holder of a running scan to do once its attempt stopped. */
export type StopAction = 'requeue' | 'fail';

/** The statuses in which a worker holds the scan: an attempt is under way (or stopping). */
export const heldStatuses = [...runningStatuses, ScanStatus.Cancelling] as const;

/** A scan going back to the queue as new: no attempt, no lease, no outcome. */
const requeuedColumns = {
  status: ScanStatus.Queued,
  attempts: 0,
  not_before: null,
  lease_owner: null,
  lease_expires_at: null,
  completed_at: null,
  started_at: null,
  log_message: null,
  summary_json: null,
  stop_action: null,
} as const;

/** Set by an administrator on a scan that fails (its log message says who did it). */
export const adminFailedMessage = adminMessages.setFailedLog;

/**
 * Admin requeue of a scan nobody holds (queued, paused or finished): back to Queued with
 * (possibly edited) settings and fresh totals. False when a worker holds it (a race with a claim).
 */
export async function requeueScan(
  db: Kysely<Database>,
  id: string,
  settingsJson: string,
  url: string,
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({ ...requeuedColumns, settings_json: settingsJson, url })
    .where('id', '=', id)
    .where('status', 'not in', [...heldStatuses])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Asks the worker holding a running scan to stop its attempt (status 8) and then to requeue or
 * fail it: the holder alone moves it on (applyStopAction), so a requeued scan is claimed again
 * only after the attempt before it has stopped writing. Edited settings are stored at once (the
 * running attempt has its own copy). False when no worker holds the scan.
 */
export async function requestStop(
  db: Kysely<Database>,
  id: string,
  action: StopAction,
  edits: { settingsJson: string; url: string } | undefined,
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({
      status: ScanStatus.Cancelling,
      stop_action: action,
      ...(edits ? { settings_json: edits.settingsJson, url: edits.url } : {}),
    })
    .where('id', '=', id)
    .where('status', 'in', [...heldStatuses])
    .where('lease_owner', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The holder's last step when an administrator stopped its attempt: Queued as new, or Failed.
 * Answers the status written, or undefined when the lease is not `owner`'s or no stop was asked.
 */
export async function applyStopAction(
  db: Kysely<Database>,
  id: string,
  owner: string,
  now: Date,
): Promise<number | undefined> {
  const held = (action: StopAction) =>
    db
      .updateTable('scans')
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('stop_action', '=', action);
  const requeued = await held('requeue').set(requeuedColumns).executeTakeFirst();
  if (requeued.numUpdatedRows > 0n) return ScanStatus.Queued;
  const failed = await held('fail').set(failedColumns(now)).executeTakeFirst();
  return failed.numUpdatedRows > 0n ? ScanStatus.Failed : undefined;
}

/** A scan an administrator set to Failed, once nobody holds it. */
function failedColumns(now: Date) {
  return {
    status: ScanStatus.Failed,
    completed_at: now,
    log_message: adminFailedMessage,
    lease_owner: null,
    lease_expires_at: null,
    stop_action: null,
  };
}

/**
 * Moves a scan the caller holds from one of `from` to `to` (the worker's 5 → 9 → 11, or a
 * stopping worker handing it back); false when the lease is no longer `owner`'s.
 */
export async function advanceHeldScan(
  db: Kysely<Database>,
  id: string,
  owner: string,
  from: readonly number[],
  to: number,
  extra: { leaseOwner?: null } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({ status: to, ...('leaseOwner' in extra ? { lease_owner: null } : {}) })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A fence for a result write (inside its transaction, first): touches the scan row only while
 * `owner` holds its lease, so a writer that lost it writes nothing. On PostgreSQL the row stays
 * locked to the commit, so a claim or requeue waits for the batch; SQLite runs one writer at once.
 */
export async function holdsLease(
  db: Kysely<Database>,
  id: string,
  owner: string,
): Promise<boolean> {
  const result = await db
    .updateTable('scans')
    .set({ lease_owner: owner })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The target rows a scan has written so far, each one URL's check (its checkpoint). */
export async function checkedTargets(db: Kysely<Database>, scanId: string) {
  return db
    .selectFrom('scan_targets')
    .select([
      'url',
      'state',
      'reason',
      'status_code',
      'message',
      'content_type',
      'size',
      'check_detail_json',
    ])
    .where('scan_id', '=', scanId)
    .where('url', '!=', '')
    .execute();
}

/** The pages a scan's earlier run read, as their records' JSON (its page checkpoint). */
export async function pageReads(db: Kysely<Database>, scanId: string) {
  return db
    .selectFrom('scan_page_reads')
    .select('record_json')
    .where('scan_id', '=', scanId)
    .execute();
}

/** Removes a scan's results (a re-queued scan writes them all again). */
export async function deleteResults(db: Kysely<Database>, scanId: string): Promise<void> {
  const tables = [
    'scan_links',
    'scan_targets',
    'scan_pages',
    'scan_certificates',
    'scan_duplicate_anchors',
    'scan_rule_violations',
    'scan_page_reads',
    'scan_link_counts',
    'scan_suggestions',
    'scan_read_figures',
    'scan_changes',
  ] as const;
  for (const table of tables) await db.deleteFrom(table).where('scan_id', '=', scanId).execute();
}

/**
 * After the reference counts: the scan's links counted by target state and reason (the report's
 * stored totals), from the targets' counts rather than the links themselves.
 */
export async function countLinksByState(db: Kysely<Database>, scanId: string): Promise<void> {
  await db
    .insertInto('scan_link_counts')
    .columns(['scan_id', 'state', 'reason', 'links'])
    .expression((eb) =>
      eb
        .selectFrom('scan_targets')
        .select([
          'scan_id',
          'state',
          'reason',
          (select) => select.fn.sum<number>('reference_count').as('links'),
        ])
        .where('scan_id', '=', scanId)
        .groupBy(['scan_id', 'state', 'reason']),
    )
    .execute();
}

/** After the crawl: each target's reference count from its link occurrences, in one statement. */
export async function countReferences(db: Kysely<Database>, scanId: string): Promise<void> {
  await sql`update scan_targets set reference_count = (
      select count(*) from scan_links
      where scan_links.scan_id = scan_targets.scan_id and scan_links.target_id = scan_targets.id
    ) where scan_id = ${scanId}`.execute(db);
}

/**
 * Broken link occurrences and URLs the owner ignored, per scan of the owner's (the scan list's
 * counts without them): each ignored URL is looked up in the scans of its site.
 */
export async function ignoredBadLinksByScan(
  db: Kysely<Database>,
  userId: string,
): Promise<Map<string, { badLinks: number; uniqueBadLinks: number }>> {
  // The sites with ignored URLs first (most users have none: one index probe, nothing more),
  // then per site its scans' targets by (scan, URL): the order is ours, not the planner's.
  const sites = await db
    .selectFrom('triage_marks')
    .select('site')
    .distinct()
    .where('user_id', '=', userId)
    .where('kind', '=', 'link')
    .where('mark', '=', 'ignored')
    .execute();
  const perSite = await Promise.all(
    sites.map(({ site }) =>
      db
        .selectFrom('scans as s')
        .innerJoin('scan_targets as t', 't.scan_id', 's.id')
        .select([
          's.id',
          (eb) => eb.fn.countAll<number | string>().as('urls'),
          (eb) => eb.fn.sum<number | string>('t.reference_count').as('links'),
        ])
        .where('s.user_id', '=', userId)
        .where('s.url', '=', site)
        // Only listed scans with broken links have something to take out.
        .where('s.trashed_at', 'is', null)
        .where('s.bad_links', '>', 0)
        .where('t.state', '=', 'broken')
        .where('t.url', 'in', (eb) =>
          eb
            .selectFrom('triage_marks')
            .select('target')
            .where('user_id', '=', userId)
            .where('site', '=', site)
            .where('kind', '=', 'link')
            .where('mark', '=', 'ignored'),
        )
        .groupBy('s.id')
        .execute(),
    ),
  );
  return new Map(
    perSite
      .flat()
      .map((row) => [
        row.id,
        { badLinks: Number(row.links ?? 0), uniqueBadLinks: Number(row.urls) },
      ]),
  );
}
