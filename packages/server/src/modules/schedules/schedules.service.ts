import { describeSchedule } from '@linkaudit/core/schedule-description';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  defaultScanRequest,
  isKnownTimeZone,
  limits,
  nextRunAfter,
  planOf,
  ScanStatus,
  scheduleActionOf,
  scheduleMessages,
  scheduleScanRequestSchema,
  scheduleSettingsSchema,
  ScheduleStatus,
  utcCronExpression,
  type CreateScanResponse,
  type CreateScanSubmission,
  type ScheduledRun,
  type ScheduledScan,
  type ScanRequest,
  type ScheduleSettings,
} from '@linkaudit/core';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { toBoolean, toDate, toOptionalDate } from '../../db/values.js';
import { HttpError, parseRequest } from '../../plugins/error-handler.js';
import { newProblemCounts } from '../reports/scan-changes.js';
import type { ScanOwner, ScanService } from '../scans/scans.service.js';
import {
  countSchedules,
  deleteSchedule,
  finishedRuns,
  findSchedule,
  hasUnfinishedRun,
  insertSchedule,
  listSchedules,
  recordRun,
  runFacts,
  scheduleUrls,
  updateSchedule,
  type ScheduleChanges,
  type RunFacts,
  type ScheduleRow,
} from './schedules.repository.js';
import { keepingStoredValues, shownSettings } from '../scans/scan-credentials.js';

export interface ScheduleServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  scans: ScanService;
}

type ScheduleScanRequest = z.infer<typeof scheduleScanRequestSchema>;

/** A schedule checked and ready to be saved. */
interface ScheduleDraft {
  settings: ScanRequest;
  timing: ScheduleSettings;
  notifyOnChange: boolean;
}

/**
 * Scheduled scans of SPEC §7 for their owners: create (also from a scan submission), update,
 * pause (7) / resume (6), delete, run now, history. Firing on the clock is the Scheduler's job.
 */
export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  async list(owner: ScanOwner, language: string): Promise<ScheduledScan[]> {
    const rows = await listSchedules(this.deps.db, owner.id);
    const facts = await runFacts(this.deps.db, rows);
    return rows.map((row) => toScheduledScan(row, facts, language));
  }

  /**
   * POST /api/ScanApi/: with `enableSchedule` a schedule is saved, then (unless
   * `saveScheduleOnly`, answered with 14) its first run is queued at once.
   */
  async submit(owner: ScanOwner, request: CreateScanSubmission): Promise<CreateScanResponse> {
    const draft = await this.#checkedDraft(owner, {
      scanSettings: withUrl(request.scanSettings, request.url),
      scheduleSettings: request.scheduleSettings ?? {},
      notifyOnChange: request.notifyOnChange ?? true,
    });
    if (!request.saveScheduleOnly) {
      // The scan now must fit the month's credit, or neither it nor the schedule is made.
      const refusal = await this.deps.scans.credit(owner, draft.settings);
      if (refusal) return refusal;
    }
    const schedule = await this.#insert(owner, draft);
    if (request.saveScheduleOnly) {
      return {
        status: ScanStatus.ScheduledScanCreated,
        message: scheduleMessages.created,
        scheduleId: schedule.id,
      };
    }
    const answer = await this.queueRun(owner, schedule);
    return { ...answer, scheduleId: schedule.id };
  }

  /** POST /api/ScanApi/ScheduleScan. */
  async change(
    owner: ScanOwner,
    body: unknown,
    language: string,
  ): Promise<ScheduledScan | Record<string, never>> {
    const request = parseRequest(scheduleScanRequestSchema, body);
    const action = scheduleActionOf(request);
    if (action === 'create') {
      const draft = await this.#checkedDraft(owner, {
        scanSettings: withUrl(request.scanSettings, request.url),
        scheduleSettings: request.scheduleSettings ?? {},
        notifyOnChange: request.notifyOnChange ?? true,
      });
      const row = await this.#insert(owner, draft);
      return this.#scheduledScan(row, language);
    }
    const row = await this.#owned(owner, request.id);
    if (action === 'delete') {
      await deleteSchedule(this.deps.db, row.id);
      return {};
    }
    const changes =
      action === 'pause'
        ? { status: ScheduleStatus.Paused, nextRunAt: null }
        : action === 'resume'
          ? this.#resumeChanges(row)
          : await this.#updateChanges(owner, row, request);
    await updateSchedule(this.deps.db, row.id, changes, this.deps.clock.now());
    await this.#holdOrReleaseQueuedRun(row.id, action);
    return this.#scheduledScan(await this.#owned(owner, row.id), language);
  }

  /**
   * After a downgrade (issue 22): active schedules beyond the new plan's allowance pause, the
   * newest first; the oldest keep running. None is deleted; the user may resume one after
   * pausing another, or after upgrading again. Answers how many were paused.
   */
  async pauseBeyondAllowance(owner: ScanOwner): Promise<number> {
    const plan = planOf(owner.planId);
    const allowance = plan.paid ? (plan.schedules ?? Number.POSITIVE_INFINITY) : 0;
    const active = (await listSchedules(this.deps.db, owner.id))
      .filter((row) => row.status === ScheduleStatus.Active)
      .reverse();
    const extra = active.slice(allowance);
    for (const row of extra) {
      await updateSchedule(
        this.deps.db,
        row.id,
        { status: ScheduleStatus.Paused, nextRunAt: null },
        this.deps.clock.now(),
      );
      await this.deps.scans.holdScheduleRuns(row.id);
    }
    return extra.length;
  }

  /** The addresses of the owner's schedules, for the websites allowance (the scans service). */
  urls(userId: string, exceptScheduleId?: string): Promise<string[]> {
    return scheduleUrls(this.deps.db, userId, exceptScheduleId);
  }

  /** GET /api/ScanApi/ScheduledRuns/{id}: the last 100 finished runs, oldest first. */
  async runs(owner: ScanOwner, id: string): Promise<ScheduledRun[]> {
    const row = await this.#owned(owner, id);
    const runs = (await finishedRuns(this.deps.db, row.id, limits.scheduleHistoryRuns)).reverse();
    // Issue 27: the chart marks the runs that found problems the run before did not have.
    const [added, ignored] = await Promise.all([
      newProblemCounts(
        this.deps.db,
        { userId: row.user_id, site: row.url },
        runs.map((run) => run.id),
      ),
      // The chart's bad links, as the scan list counts them: without those the owner ignored.
      this.deps.scans.ignoredBadLinks(row.user_id),
    ]);
    return runs.map((run, index) => ({
      scanId: run.id,
      status: run.status,
      dateCreated: toDate(run.created_at).toISOString(),
      dateCompleted: toOptionalDate(run.completed_at)?.toISOString() ?? null,
      badLinks: Math.max(0, Number(run.bad_links) - (ignored.get(run.id)?.badLinks ?? 0)),
      uniqueBadLinks: Math.max(
        0,
        Number(run.unique_bad_links) - (ignored.get(run.id)?.uniqueBadLinks ?? 0),
      ),
      totalLinks: Number(run.total_links),
      uniqueLinks: Number(run.unique_links),
      duration: Number(run.duration_ms),
      newProblems: added[index] ?? null,
    }));
  }

  /** POST /api/ScanApi/ScheduledRuns/{id}: run now (paused or not); refused while one is going. */
  async runNow(owner: ScanOwner, id: string): Promise<CreateScanResponse> {
    const row = await this.#owned(owner, id);
    if (await hasUnfinishedRun(this.deps.db, row.id)) {
      throw new HttpError(409, scheduleMessages.stillRunning, {
        exceptionMessage: scheduleMessages.stillRunning,
      });
    }
    return this.queueRun(owner, row);
  }

  /** Queues a run of the schedule with its saved settings, and counts it when it was queued. */
  async queueRun(owner: ScanOwner, row: ScheduleRow): Promise<CreateScanResponse> {
    const answer = await this.deps.scans.queue(
      owner,
      this.deps.scans.openSettings(row.settings_json),
      { schedule: { id: row.id, settings: scheduleSettingsOf(row) } },
    );
    if (answer.status === ScanStatus.Queued && answer.id) {
      await recordRun(this.deps.db, row.id, answer.id, this.deps.clock.now());
    }
    return answer;
  }

  /** A new schedule as the plan allows it: allowance, URL and settings checked, timing filled in. */
  async #checkedDraft(
    owner: ScanOwner,
    input: {
      scanSettings: ScanRequest;
      scheduleSettings: z.input<typeof scheduleSettingsSchema>;
      notifyOnChange: boolean;
    },
  ): Promise<ScheduleDraft> {
    await this.#checkAllowance(owner);
    return {
      settings: await this.deps.scans.checkedSettings(owner, input.scanSettings),
      timing: checkedTiming(input.scheduleSettings),
      notifyOnChange: input.notifyOnChange,
    };
  }

  async #insert(owner: ScanOwner, draft: ScheduleDraft): Promise<ScheduleRow> {
    const { settings, timing } = draft;
    const now = this.deps.clock.now();
    const id = randomUUID();
    await insertSchedule(this.deps.db, {
      id,
      userId: owner.id,
      url: settings.url,
      scanType: settings.scanDepth,
      settingsJson: this.deps.scans.storeSettings(settings),
      scheduleSettingsJson: JSON.stringify(timing),
      cronExpression: utcCronExpression(timing),
      notifyOnChange: draft.notifyOnChange,
      createdAt: now,
      nextRunAt: nextRunAfter(timing, now),
    });
    return this.#owned(owner, id);
  }

  /** Free: none (the upgrade text); paid plans: their allowance (DESIGN §4). */
  async #checkAllowance(owner: ScanOwner): Promise<void> {
    const plan = planOf(owner.planId);
    if (!plan.paid || plan.schedules === 0) {
      throw new HttpError(403, scheduleMessages.paidOnly, {
        exceptionMessage: scheduleMessages.paidOnly,
      });
    }
    if (
      plan.schedules !== null &&
      (await countSchedules(this.deps.db, owner.id)) >= plan.schedules
    ) {
      const message = scheduleMessages.allowance(plan.schedules);
      throw new HttpError(403, message, { exceptionMessage: message });
    }
  }

  /** SPEC §4: pausing holds a run still waiting in the queue (6 → 7); resuming lets it go. */
  async #holdOrReleaseQueuedRun(scheduleId: string, action: string): Promise<void> {
    if (action === 'pause') await this.deps.scans.holdScheduleRuns(scheduleId);
    else if (action === 'resume') await this.deps.scans.releaseScheduleRuns(scheduleId);
  }

  #resumeChanges(row: ScheduleRow): ScheduleChanges {
    return {
      status: ScheduleStatus.Active,
      nextRunAt: nextRunAfter(scheduleSettingsOf(row), this.deps.clock.now()),
    };
  }

  async #updateChanges(
    owner: ScanOwner,
    row: ScheduleRow,
    request: ScheduleScanRequest,
  ): Promise<ScheduleChanges> {
    const changes: ScheduleChanges = {};
    if (request.scanSettings || request.url) {
      const current = this.deps.scans.openSettings(row.settings_json);
      // Editing the address of a schedule frees its old site unless other scans keep it; edited
      // settings keep the stored credentials they say are set (issue 36).
      const settings = await this.deps.scans.checkedSettings(
        owner,
        {
          ...(request.scanSettings ? keepingStoredValues(request.scanSettings, current) : current),
          url: request.url ?? request.scanSettings?.url ?? current.url,
        },
        undefined,
        { exceptScheduleId: row.id },
      );
      Object.assign(changes, {
        url: settings.url,
        scanType: settings.scanDepth,
        settingsJson: this.deps.scans.storeSettings(settings),
      });
    }
    if (request.scheduleSettings) {
      const timing = checkedTiming(request.scheduleSettings);
      Object.assign(changes, {
        scheduleSettingsJson: JSON.stringify(timing),
        cronExpression: utcCronExpression(timing),
        ...(row.status === ScheduleStatus.Active && {
          nextRunAt: nextRunAfter(timing, this.deps.clock.now()),
        }),
      });
    }
    if (request.notifyOnChange !== undefined) changes.notifyOnChange = request.notifyOnChange;
    return changes;
  }

  /** The owner's schedule; 404 for anyone else, so ids reveal nothing. */
  async #owned(owner: ScanOwner, id: string | undefined): Promise<ScheduleRow> {
    const row = id ? await findSchedule(this.deps.db, id) : undefined;
    if (!row || row.user_id !== owner.id) throw new HttpError(404, scheduleMessages.notFound);
    return row;
  }

  async #scheduledScan(row: ScheduleRow, language: string): Promise<ScheduledScan> {
    return toScheduledScan(row, await runFacts(this.deps.db, [row]), language);
  }
}

/** A schedule as the list shows it (SPEC §3 Scheduled scan), with what its runs tell. */
function toScheduledScan(row: ScheduleRow, facts: RunFacts, language: string): ScheduledScan {
  const timing = scheduleSettingsOf(row);
  return {
    id: row.id,
    url: row.url,
    status: row.status,
    dateCreated: toDate(row.created_at).toISOString(),
    lastRun: toOptionalDate(row.last_run_at)?.toISOString() ?? null,
    statusCode: facts.lastRunStatus.get(row.last_scan_id ?? '') ?? null,
    scanType: row.scan_type,
    totalLinksScanned: facts.lastFinishedTotal.get(row.id) ?? 0,
    scheduleCronExpression: row.cron_expression,
    describedCronExpression: describeSchedule(timing, language),
    scheduleSettings: timing,
    scanSettings: shownSettings(row.settings_json),
    enabled: row.status === ScheduleStatus.Active,
    runCount: Number(row.run_count),
    skippedRuns: Number(row.skipped_runs),
    lastSkipped: toOptionalDate(row.last_skipped_at)?.toISOString() ?? null,
    lastSkipReason: row.last_skip_reason,
    nextRun: toOptionalDate(row.next_run_at)?.toISOString() ?? null,
    lastScanId: row.last_scan_id,
    notifyOnChange: toBoolean(row.notify_on_change),
  };
}

export function scheduleSettingsOf(row: ScheduleRow): ScheduleSettings {
  return scheduleSettingsSchema.parse(JSON.parse(row.schedule_settings_json));
}

/** Schedule settings with defaults filled in; an unknown IANA zone is a clear 400. */
function checkedTiming(input: z.input<typeof scheduleSettingsSchema>): ScheduleSettings {
  const timing = parseRequest(scheduleSettingsSchema, input);
  if (timing.timeZone !== undefined && !isKnownTimeZone(timing.timeZone)) {
    throw new HttpError(400, scheduleMessages.invalidTimeZone, {
      exceptionMessage: scheduleMessages.invalidTimeZone,
    });
  }
  return timing;
}

/** A submission's settings (their defaults when it sent none), with the URL it gave beside them. */
function withUrl(settings: ScanRequest | undefined, url: string | undefined): ScanRequest {
  const given = settings ?? defaultScanRequest();
  return url ? { ...given, url } : given;
}
