import { sql, type Kysely, type Selectable } from 'kysely';
import { isFinishedStatus, ScanStatus, ScheduleStatus } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { schedulerTickKey } from '../../db/server-meta-keys.js';
import type { SchedulesTable } from './schedules.table.js';

/**
 * Scheduled scans and their runs. All SQL of the schedules table is here; a schedule's runs are
 * rows of the scans table, read here in single statements (docs/decisions.md, issue 20).
 */

export type ScheduleRow = Selectable<SchedulesTable>;

/** SPEC §4's finished statuses (1–4, 10), as the list a query needs. */
const finishedStatuses = Object.values(ScanStatus).filter(isFinishedStatus);

/** Runs whose broken links can be compared: they checked what they set out to check. */
export const comparableStatuses = [ScanStatus.Complete, ScanStatus.OverMaxLinks] as const;

export interface NewSchedule {
  id: string;
  userId: string;
  url: string;
  scanType: number;
  settingsJson: string;
  scheduleSettingsJson: string;
  cronExpression: string;
  notifyOnChange: boolean;
  createdAt: Date;
  nextRunAt: Date;
}

export async function insertSchedule(db: Kysely<Database>, schedule: NewSchedule): Promise<void> {
  await db
    .insertInto('schedules')
    .values({
      id: schedule.id,
      user_id: schedule.userId,
      url: schedule.url,
      status: ScheduleStatus.Active,
      scan_type: schedule.scanType,
      settings_json: schedule.settingsJson,
      schedule_settings_json: schedule.scheduleSettingsJson,
      cron_expression: schedule.cronExpression,
      notify_on_change: schedule.notifyOnChange,
      created_at: schedule.createdAt,
      updated_at: schedule.createdAt,
      next_run_at: schedule.nextRunAt,
      last_run_at: null,
      last_scan_id: null,
      last_skipped_at: null,
      last_skip_reason: null,
    })
    .execute();
}

export async function findSchedule(
  db: Kysely<Database>,
  id: string,
): Promise<ScheduleRow | undefined> {
  return db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSchedules(db: Kysely<Database>, userId: string): Promise<ScheduleRow[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The distinct addresses of the user's schedules (paused ones too), one schedule left out. */
export async function scheduleUrls(
  db: Kysely<Database>,
  userId: string,
  exceptScheduleId?: string,
): Promise<string[]> {
  let query = db.selectFrom('schedules').select('url').distinct().where('user_id', '=', userId);
  if (exceptScheduleId) query = query.where('id', '!=', exceptScheduleId);
  return (await query.execute()).map((row) => row.url);
}

export async function countSchedules(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type ScheduleChanges = Partial<{
  url: string;
  status: number;
  scanType: number;
  settingsJson: string;
  scheduleSettingsJson: string;
  cronExpression: string;
  notifyOnChange: boolean;
  nextRunAt: Date | null;
}>;

export async function updateSchedule(
  db: Kysely<Database>,
  id: string,
  changes: ScheduleChanges,
  at: Date,
): Promise<void> {
  const set = {
    updated_at: at,
    ...(changes.url !== undefined && { url: changes.url }),
    ...(changes.status !== undefined && { status: changes.status }),
    ...(changes.scanType !== undefined && { scan_type: changes.scanType }),
    ...(changes.settingsJson !== undefined && { settings_json: changes.settingsJson }),
    ...(changes.scheduleSettingsJson !== undefined && {
      schedule_settings_json: changes.scheduleSettingsJson,
    }),
    ...(changes.cronExpression !== undefined && { cron_expression: changes.cronExpression }),
    ...(changes.notifyOnChange !== undefined && { notify_on_change: changes.notifyOnChange }),
    ...(changes.nextRunAt !== undefined && { next_run_at: changes.nextRunAt }),
  };
  await db.updateTable('schedules').set(set).where('id', '=', id).execute();
}

export async function deleteSchedule(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('schedules').where('id', '=', id).execute();
}

/** Active schedules whose next run is due, oldest first. */
export async function dueSchedules(
  db: Kysely<Database>,
  now: Date,
  limit: number,
): Promise<ScheduleRow[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('status', '=', ScheduleStatus.Active)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
}

/**
 * Moves a due schedule's clock from `dueAt` to `nextRunAt`; true for exactly one caller. This
 * conditional update is how several scheduler processes fire each run once.
 */
export async function claimDueRun(
  db: Kysely<Database>,
  id: string,
  dueAt: Date,
  nextRunAt: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('schedules')
    .set({ next_run_at: nextRunAt })
    .where('id', '=', id)
    .where('status', '=', ScheduleStatus.Active)
    .where('next_run_at', '=', dueAt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function recordRun(
  db: Kysely<Database>,
  id: string,
  scanId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('schedules')
    .set((eb) => ({
      run_count: eb('run_count', '+', 1),
      last_run_at: at,
      last_scan_id: scanId,
    }))
    .where('id', '=', id)
    .execute();
}

export async function recordSkip(
  db: Kysely<Database>,
  id: string,
  reason: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('schedules')
    .set((eb) => ({
      skipped_runs: eb('skipped_runs', '+', 1),
      last_skipped_at: at,
      last_skip_reason: reason,
    }))
    .where('id', '=', id)
    .execute();
}

/** Is a run of this schedule still waiting or running (anything not finished)? */
export async function hasUnfinishedRun(db: Kysely<Database>, scheduleId: string): Promise<boolean> {
  const row = await db
    .selectFrom('scans')
    .select('id')
    .where('source_schedule_id', '=', scheduleId)
    .where('status', 'not in', [...finishedStatuses])
    .where('trashed_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface RunRow {
  id: string;
  status: number;
  created_at: Date | string;
  completed_at: Date | string | null;
  bad_links: number;
  unique_bad_links: number;
  total_links: number;
  unique_links: number;
  duration_ms: number;
}

/** The newest `limit` finished runs of a schedule, newest first (deleted runs left out). */
export async function finishedRuns(
  db: Kysely<Database>,
  scheduleId: string,
  limit: number,
): Promise<RunRow[]> {
  return db
    .selectFrom('scans')
    .select([
      'id',
      'status',
      'created_at',
      'completed_at',
      'bad_links',
      'unique_bad_links',
      'total_links',
      'unique_links',
      'duration_ms',
    ])
    .where('source_schedule_id', '=', scheduleId)
    .where('status', 'in', [...finishedStatuses])
    .where('trashed_at', 'is', null)
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Broken target URLs of a scan (unique), for the change mail. */
export async function brokenTargetUrls(
  db: Kysely<Database>,
  scanId: string,
  owner: { userId: string; site: string },
): Promise<string[]> {
  const rows = await db
    .selectFrom('scan_targets')
    .select('url')
    .where('scan_id', '=', scanId)
    .where('state', '=', 'broken')
    // URLs the owner ignored (issue 27 triage) are no change worth a mail.
    .where('url', 'not in', (eb) =>
      eb
        .selectFrom('triage_marks')
        .select('target')
        .where('user_id', '=', owner.userId)
        .where('site', '=', owner.site)
        .where('kind', '=', 'link')
        .where('mark', '=', 'ignored'),
    )
    .orderBy('url')
    .execute();
  return rows.map((row) => row.url);
}

/** The run before `scanId` whose results are whole (Complete or Limit Reached), if any. */
export async function previousComparableRun(
  db: Kysely<Database>,
  scheduleId: string,
  scanId: string,
  completedBefore: Date,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('scans')
    .select('id')
    .where('source_schedule_id', '=', scheduleId)
    .where('id', '!=', scanId)
    .where('status', 'in', [...comparableStatuses])
    .where('completed_at', '<', completedBefore)
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** What the schedule list shows of each schedule's runs, read for all of them at once. */
export interface RunFacts {
  /** Status of each schedule's last started run, by scan id. */
  lastRunStatus: Map<string, number>;
  /** Links checked by each schedule's newest finished run, by schedule id. */
  lastFinishedTotal: Map<string, number>;
}

export async function runFacts(db: Kysely<Database>, schedules: ScheduleRow[]): Promise<RunFacts> {
  const scanIds = schedules.flatMap((row) => (row.last_scan_id ? [row.last_scan_id] : []));
  const scheduleIds = schedules.map((row) => row.id);
  if (scheduleIds.length === 0) return { lastRunStatus: new Map(), lastFinishedTotal: new Map() };
  const [statuses, totals] = await Promise.all([
    scanIds.length === 0
      ? []
      : db.selectFrom('scans').select(['id', 'status']).where('id', 'in', scanIds).execute(),
    // The newest finished run per schedule, in one statement (both dialects have window functions).
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('scans')
          .select([
            'source_schedule_id',
            'total_links',
            sql<number>`row_number() over (partition by source_schedule_id order by completed_at desc, id desc)`.as(
              'newest',
            ),
          ])
          .where('source_schedule_id', 'in', scheduleIds)
          .where('status', 'in', [...finishedStatuses])
          .where('trashed_at', 'is', null)
          .as('runs'),
      )
      .select(['source_schedule_id', 'total_links'])
      .where('newest', '=', 1)
      .execute(),
  ]);
  return {
    lastRunStatus: new Map(statuses.map((row) => [row.id, row.status])),
    lastFinishedTotal: new Map(
      totals.map((row) => [row.source_schedule_id ?? '', Number(row.total_links)]),
    ),
  };
}

/** Notes that a scheduler looked for due schedules now (ISO text, real time). */
export async function recordSchedulerTick(db: Kysely<Database>, at: Date): Promise<void> {
  const value = at.toISOString();
  await db
    .insertInto('server_meta')
    .values({ key: schedulerTickKey, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}
