import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { Kysely } from 'kysely';
import {
  canCancel,
  checkScanUrl,
  defaultScanRequest,
  isFinishedStatus,
  adminMessages,
  planOf,
  plans,
  requeueScanRequestSchema,
  resolveScan,
  mergeIgnoredWords,
  scanMessages,
  scanRequestSchema,
  sitesOf,
  websiteMessages,
  ScanStatus,
  type AdminScan,
  type CreateScanResponse,
  type CreateScanSubmission,
  type MonthlyCredit,
  type Plan,
  type ResolvedScan,
  type Scan,
  type ScanRequest,
  type ScanResolution,
  type ScheduleSettings,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { toDate, toBoolean, toOptionalDate } from '../../db/values.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError, parseRequest } from '../../plugins/error-handler.js';
import { refusedStartAddress, type AddressPolicy } from './address-guard.js';
import {
  keepingStoredValues,
  openedSettings,
  sealedSettings,
  shownSettings,
} from './scan-credentials.js';
import type { SecretBox } from './secret-box.js';
import {
  adminFailedMessage,
  changeStatus,
  countRunning,
  findScan,
  insertScan,
  ignoredBadLinksByScan,
  listScans,
  moveScheduleRuns,
  heldStatuses,
  requeueScan,
  requestStop,
  runningStatuses,
  trashScan,
  keptScanUrls,
  urlsUsedSince,
  type NewScan,
  type ScanRow,
} from './scans.repository.js';
import { queuedInTurnOrder } from './scan-queue.repository.js';
import type { ScanUpdates } from './scan-updates.js';

/** Whose scan it is: enough to apply the plan (a signed-in user, or a schedule's owner). */
export type ScanOwner = Pick<SignedInUser, 'id' | 'planId'>;

export interface QueueOptions {
  /** A URL given beside the settings (SPEC allows it at the top of the body). */
  url?: string | undefined;
  /** The schedule this scan is a run of. */
  schedule?: { id: string; settings: ScheduleSettings };
}

/** Sites a resolution asks about: a schedule being edited does not keep its old site. */
export interface SiteQuestion {
  exceptScheduleId?: string | undefined;
}

export interface ScanServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  policy: AddressPolicy;
  /** Seals scan credentials at rest and opens them again (issue 36). */
  secrets: SecretBox;
  updates: ScanUpdates;
  /** Name resolution of the start-address check: the engine's (tests resolve without DNS). */
  lookup?: LookupFunction | undefined;
  /** Tells this process's idle workers that a scan was queued. */
  wakeWorkers: () => void;
  /** A scan owner's current plan (an admin's requeue resolves the owner's scan with it). */
  ownerPlan: (userId: string) => Promise<Plan>;
  /**
   * Where the owner's monthly URL credit started counting: the start of the paid billing
   * period (billing), or the calendar month (UTC) for an account without one.
   */
  creditPeriodStart?: (userId: string, now: Date) => Promise<Date | null>;
  /** The addresses of the owner's schedules (the schedules module), for the websites allowance. */
  scheduleUrls?: (userId: string, exceptScheduleId?: string) => Promise<string[]>;
  /** The owner's words to ignore for a site (spelling module): every new scan of it takes them. */
  siteWords?: (userId: string, site: string) => Promise<string[]>;
  /** Whether the owner's last payment failed (billing): no new scans until it is put right. */
  paymentFailed?: (userId: string) => Promise<boolean>;
}

/** Scans of SPEC §3/§4/§7: submit (plan limits, credits), list, cancel, trash; owners only. */
export class ScanService {
  constructor(private readonly deps: ScanServiceDeps) {}

  async list(user: ScanOwner): Promise<Scan[]> {
    const [rows, queue, running, ignored] = await Promise.all([
      listScans(this.deps.db, user.id),
      queuedInTurnOrder(this.deps.db),
      countRunning(this.deps.db, user.id),
      ignoredBadLinksByScan(this.deps.db, user.id),
    ]);
    // Issue 27: the list counts broken links without those the owner ignored.
    return rows.map((row) => withoutIgnoredLinks(toScan(row, queue, running), ignored.get(row.id)));
  }

  /** Per scan of the user's, the broken links the user ignored (issue 27 triage). */
  ignoredBadLinks(
    userId: string,
  ): Promise<Map<string, { badLinks: number; uniqueBadLinks: number }>> {
    return ignoredBadLinksByScan(this.deps.db, userId);
  }

  /**
   * settings_json of a scan or schedule: the settings with their credentials' values sealed,
   * read back by the worker (openSettings) and by answers (shownSettings, no values).
   */
  storeSettings(settings: ScanRequest | ResolvedScan): string {
    return JSON.stringify(sealedSettings(this.deps.secrets, settings));
  }

  /** Stored settings with their credentials' values in clear (a run, an edit that keeps them). */
  openSettings(settingsJson: string): ScanRequest {
    return scanRequestSchema.parse(openedSettings(this.deps.secrets, settingsJson));
  }

  /** POST /api/ScanApi/ without scheduling: the submission as the route validated it. */
  async create(user: ScanOwner, request: CreateScanSubmission): Promise<CreateScanResponse> {
    return this.queue(user, request.scanSettings ?? defaultScanRequest(), { url: request.url });
  }

  /**
   * The URL checked and the address policy applied, then resolveScan: the plan's limits imposed and
   * the month's credit checked (12 / 13); the resolved scan is stored as a new Queued scan.
   * Scheduled runs come through here too, with the owner's plan of the moment.
   */
  async queue(
    owner: ScanOwner,
    settings: ScanRequest,
    options: QueueOptions = {},
  ): Promise<CreateScanResponse> {
    await this.#refuseWhenPaymentFailed(owner);
    const request = await this.#withSiteWords(
      owner,
      await this.#checkedRequest(settings, options.url),
    );
    const resolution = await this.#resolveNow(owner, request);
    if (resolution.outcome !== 'resolved') return refusal(resolution);
    const resolved = resolution.scan;

    const id = randomUUID();
    await insertScan(this.deps.db, {
      id,
      userId: owner.id,
      url: resolved.url,
      priority: planOf(owner.planId).queuePriority,
      scanType: resolved.scanDepth,
      settingsJson: this.storeSettings(resolved),
      scheduleSettingsJson: options.schedule ? JSON.stringify(options.schedule.settings) : null,
      enableSchedule: options.schedule !== undefined,
      saveScheduleOnly: false,
      sourceScheduleId: options.schedule?.id ?? null,
      createdAt: this.deps.clock.now(),
    });
    // The answer describes the scan as queued, so it is read before the workers are woken; a
    // worker polling on its own may still take it first, and then it was at the head of the queue.
    const scan = (await this.list(owner)).find((item) => item.id === id);
    this.deps.wakeWorkers();
    if (!scan) throw new Error('the new scan vanished');
    return {
      ...scan,
      status: ScanStatus.Queued,
      queuePosition: scan.queuePosition ?? 1,
      // The plan's decision, made once here: requested rules it does not run (Valid HTML).
      ...(resolved.withheldRules.length > 0 && {
        withheldRules: resolved.withheldRules,
        message: scanMessages.rulesWithheld,
      }),
    };
  }

  /**
   * A past-due account (its last payment failed) starts nothing: 403 with SPEC §8's
   * exceptionMessage, as the plan's other refusals of a request (schedule allowance) answer.
   */
  async #refuseWhenPaymentFailed(owner: ScanOwner): Promise<void> {
    if (!(await this.deps.paymentFailed?.(owner.id))) return;
    throw new HttpError(403, scanMessages.paymentFailed, {
      exceptionMessage: scanMessages.paymentFailed,
    });
  }

  /**
   * A request as the owner's plan allows it, with a checked, normalised URL (400 otherwise):
   * what a schedule keeps for its runs (each run is resolved again when it is queued).
   */
  async checkedSettings(
    owner: ScanOwner,
    settings: ScanRequest,
    url?: string,
    sites: SiteQuestion = {},
  ): Promise<ScanRequest> {
    const request = await this.#checkedRequest(settings, url);
    const resolution = resolveScan(request, planOf(owner.planId), {
      keptSites: await this.#keptSites(owner, sites),
    });
    if (resolution.outcome === 'website-limit-reached') throw websiteRefusal(resolution);
    if (resolution.outcome !== 'resolved') throw new Error('resolved without a credit');
    return requestOf(resolution.scan);
  }

  /** The owner's websites (DESIGN §4): sites of scans not in the trash and of schedules. */
  async #keptSites(owner: ScanOwner, sites: SiteQuestion = {}): Promise<Set<string>> {
    const [scanUrls, scheduleUrls] = await Promise.all([
      keptScanUrls(this.deps.db, owner.id),
      this.deps.scheduleUrls?.(owner.id, sites.exceptScheduleId) ?? [],
    ]);
    return sitesOf([...scanUrls, ...scheduleUrls]);
  }

  /**
   * The request with the owner's words to ignore for its site added (issue 25: "ignore this
   * word" on a report row applies from the next scan of the site on: new, rerun or scheduled).
   */
  async #withSiteWords(owner: ScanOwner, request: ScanRequest): Promise<ScanRequest> {
    const words = (await this.deps.siteWords?.(owner.id, request.url)) ?? [];
    if (words.length === 0) return request;
    return { ...request, spellingIgnore: mergeIgnoredWords(request.spellingIgnore ?? [], words) };
  }

  /** Typed settings (parsed once, where they came in) with their start address checked. */
  async #checkedRequest(settings: ScanRequest, url?: string): Promise<ScanRequest> {
    return { ...settings, url: await this.checkedStartUrl(url ?? settings.url) };
  }

  /**
   * A start address as it will be scanned (normalised), or 400 with SPEC §8's exceptionMessage:
   * malformed, on a private network (unless allowed), or a name that does not exist.
   */
  async checkedStartUrl(url: string): Promise<string> {
    const check = checkScanUrl(url, { allowPrivate: true });
    if (!check.ok) {
      throw new HttpError(400, scanMessages.invalidUrl, {
        exceptionMessage: scanMessages.invalidUrl,
      });
    }
    const refused = await refusedStartAddress(check.url, this.deps.policy, this.deps.lookup);
    if (refused) {
      const message =
        refused.kind === 'private'
          ? scanMessages.privateAddress(refused.address)
          : scanMessages.unknownHost(refused.host);
      throw new HttpError(400, message, { exceptionMessage: message });
    }
    return check.url;
  }

  /** 12 when nothing is left this month, 13 (with what is left) when the request is larger. */
  async credit(owner: ScanOwner, request: ScanRequest): Promise<CreateScanResponse | undefined> {
    const resolution = await this.#resolveNow(owner, request);
    return resolution.outcome === 'resolved' ? undefined : refusal(resolution);
  }

  /**
   * resolveScan with the owner's plan, websites and the month's credit read from the database.
   * A schedule's run passes too: the schedule itself keeps its site.
   */
  async #resolveNow(owner: ScanOwner, request: ScanRequest): Promise<ScanResolution> {
    const plan = planOf(owner.planId);
    const now = this.deps.clock.now();
    const periodStart =
      (await this.deps.creditPeriodStart?.(owner.id, now)) ??
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const [used, keptSites] = await Promise.all([
      urlsUsedSince(this.deps.db, owner.id, periodStart),
      this.#keptSites(owner),
    ]);
    const credit: MonthlyCredit = { remainingUrls: Math.max(0, plan.urlsPerMonth - used) };
    return resolveScan(request, plan, { credit, keptSites });
  }

  /** The user's scan (admins: anyone's); 404 for everyone else, so ids reveal nothing. */
  async owned(user: SignedInUser | null, id: string): Promise<ScanRow> {
    const row = await findScan(this.deps.db, id);
    if (!row || !user || (row.user_id !== user.id && !user.roles.includes('admin'))) {
      throw new HttpError(404, scanMessages.notFound);
    }
    return row;
  }

  /** Any scan by id, trash left out, no owner check: for the server's own modules (schedules). */
  find(id: string): Promise<ScanRow | undefined> {
    return findScan(this.deps.db, id);
  }

  /** SPEC §4: a paused schedule holds its run still waiting in the queue (6 → 7). */
  async holdScheduleRuns(scheduleId: string): Promise<void> {
    await moveScheduleRuns(this.deps.db, scheduleId, ScanStatus.Queued, ScanStatus.Paused);
  }

  /** A resumed schedule lets its held run go (7 → 6), and idle workers look at once. */
  async releaseScheduleRuns(scheduleId: string): Promise<void> {
    const released = await moveScheduleRuns(
      this.deps.db,
      scheduleId,
      ScanStatus.Paused,
      ScanStatus.Queued,
    );
    if (released.length > 0) this.deps.wakeWorkers();
  }

  /** Queued: Cancelled at once. Running: Cancelling (8) until the worker stops the engine (2). */
  async cancel(user: SignedInUser, id: string): Promise<Scan> {
    const row = await this.owned(user, id);
    if (!canCancel(row.status)) throw new HttpError(409, scanMessages.cancelNotAllowed);
    const { db, clock } = this.deps;
    const cancelledQueued = await changeStatus(
      db,
      id,
      [ScanStatus.Queued, ScanStatus.Paused],
      ScanStatus.Cancelled,
      {
        completedAt: clock.now(),
      },
    );
    if (!cancelledQueued) {
      const running = [ScanStatus.InProgress, ScanStatus.RuleChecking, ScanStatus.Finalizing];
      if (!(await changeStatus(db, id, running, ScanStatus.Cancelling))) {
        throw new HttpError(409, scanMessages.cancelNotAllowed);
      }
    }
    const scan = (await this.list(user)).find((item) => item.id === id);
    if (!scan) throw new HttpError(404, scanMessages.notFound);
    this.deps.updates.publish({
      scanId: id,
      userId: row.user_id,
      status: scan.status,
      totalQueuedLinks: scan.totalQueuedLinks,
      totalLinks: scan.totalLinks,
      uniqueLinks: scan.uniqueLinks,
      badLinks: scan.badLinks,
      uniqueBadLinks: scan.uniqueBadLinks,
      numPages: 0,
      durationMs: scan.duration,
    });
    return scan;
  }

  /** Delete = trash; a scan still running is cancelled first. */
  async trash(user: SignedInUser, id: string): Promise<void> {
    const row = await this.owned(user, id);
    if (canCancel(row.status)) await this.cancel(user, id);
    await trashScan(this.deps.db, id, this.deps.clock.now());
  }

  /** Admin (SPEC §7): every user's scans, newest first. */
  async adminList(): Promise<Scan[]> {
    const [rows, queue] = await Promise.all([
      listScans(this.deps.db, undefined),
      queuedInTurnOrder(this.deps.db),
    ]);
    return rows.map((row) => toScan(row, queue, 0));
  }

  /**
   * Admin: forces a scan to Failed (3). A scan a worker holds is stopped first (8): its worker
   * ends the attempt and writes Failed, so nothing of that attempt is written afterwards.
   * Answers the scan before and after.
   */
  async adminSetFailed(admin: SignedInUser, id: string): Promise<AdminChange> {
    const row = await this.owned(admin, id);
    const before = await this.#adminView(row.id);
    for (let tries = 0; tries < 3; tries++) {
      if (await requestStop(this.deps.db, row.id, 'fail', undefined)) {
        this.#publishStatus(row, ScanStatus.Cancelling);
        return { before, after: await this.#adminView(row.id) };
      }
      const unheld = Object.values(ScanStatus).filter(
        (status) => status !== ScanStatus.Failed && !heldStatuses.includes(status as never),
      );
      if (
        await changeStatus(this.deps.db, row.id, unheld, ScanStatus.Failed, {
          completedAt: this.deps.clock.now(),
          logMessage: adminFailedMessage,
        })
      ) {
        this.#publishStatus(row, ScanStatus.Failed);
        return { before, after: await this.#adminView(row.id) };
      }
      // Already Failed, or a worker claimed it between the two statements: look again.
      const current = await findScan(this.deps.db, row.id);
      if (current?.status === ScanStatus.Failed) return { before, after: before };
    }
    throw new HttpError(409, adminMessages.busy);
  }

  /**
   * Admin: back to the queue, with edited settings when the body carries them. Edited settings
   * are resolved with the largest plan (an administrator may go beyond the owner's plan), stored
   * ones again with the owner's current plan; no credit is asked. A scan a worker holds is
   * stopped first: the holder ends its attempt and requeues it (requestStop), so two attempts of
   * one scan never run at once. Answers the scan before and after.
   */
  async adminRequeue(admin: SignedInUser, body: unknown): Promise<AdminChange> {
    const request = parseRequest(requeueScanRequestSchema, body);
    const row = await this.owned(admin, request.id);
    const before = await this.#adminView(row.id);
    const current = this.openSettings(row.settings_json);
    // Edited settings keep the stored credentials they say are set (issue 36).
    const settings = request.scanSettings
      ? keepingStoredValues(request.scanSettings, current)
      : current;
    // The same start-address check as a submission: an admin cannot requeue a private address.
    const url = await this.checkedStartUrl(settings.url || row.url);
    const plan = request.scanSettings ? plans.Enterprise : await this.deps.ownerPlan(row.user_id);
    const resolution = resolveScan({ ...settings, url }, plan);
    if (resolution.outcome !== 'resolved') throw new Error('resolved without a credit');
    const edits = { settingsJson: this.storeSettings(resolution.scan), url };
    for (let tries = 0; tries < 3; tries++) {
      if (await requeueScan(this.deps.db, row.id, edits.settingsJson, url)) {
        this.#publishStatus(row, ScanStatus.Queued);
        this.deps.wakeWorkers();
        return { before, after: await this.#adminView(row.id) };
      }
      if (await requestStop(this.deps.db, row.id, 'requeue', edits)) {
        this.#publishStatus(row, ScanStatus.Cancelling);
        return { before, after: await this.#adminView(row.id) };
      }
      // A worker claimed or let go of it between the two statements: look again.
    }
    throw new HttpError(409, adminMessages.busy);
  }

  /**
   * A disabled account's scans stop: queued and paused ones are Cancelled at once, running ones
   * go to Cancelling and their workers stop them. Nothing is deleted.
   */
  async stopAllOf(userId: string): Promise<number> {
    const rows = (await listScans(this.deps.db, userId)).filter((row) => canCancel(row.status));
    let stopped = 0;
    for (const row of rows) {
      const now = this.deps.clock.now();
      const waiting = [ScanStatus.Queued, ScanStatus.Paused];
      if (
        await changeStatus(this.deps.db, row.id, waiting, ScanStatus.Cancelled, {
          completedAt: now,
        })
      ) {
        this.#publishStatus(row, ScanStatus.Cancelled);
        stopped += 1;
      } else if (
        await changeStatus(this.deps.db, row.id, [...runningStatuses], ScanStatus.Cancelling)
      ) {
        this.#publishStatus(row, ScanStatus.Cancelling);
        stopped += 1;
      }
    }
    return stopped;
  }

  /** The owner's URL credit this period: unique URLs of finished scans, and the plan's allowance. */
  async creditOf(owner: ScanOwner): Promise<{ used: number; limit: number }> {
    const plan = planOf(owner.planId);
    const now = this.deps.clock.now();
    const periodStart =
      (await this.deps.creditPeriodStart?.(owner.id, now)) ??
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return {
      used: await urlsUsedSince(this.deps.db, owner.id, periodStart),
      limit: plan.urlsPerMonth,
    };
  }

  /** Queued scans in the order workers take them (queue positions of the admin list). */
  queueOrder(): Promise<string[]> {
    return queuedInTurnOrder(this.deps.db);
  }

  /** The scan as the admin list shows it. */
  async #adminView(id: string): Promise<Scan> {
    const [queue, row] = await Promise.all([
      queuedInTurnOrder(this.deps.db),
      findScan(this.deps.db, id),
    ]);
    if (!row) throw new HttpError(404, scanMessages.notFound);
    return toScan(row, queue, 0);
  }

  /** Tells the hub (and a worker holding the scan: 8 stops its attempt) of a status change. */
  #publishStatus(row: ScanRow, status: number): void {
    this.deps.updates.publish({
      scanId: row.id,
      userId: row.user_id,
      status,
      totalQueuedLinks: Number(row.total_queued_links),
      totalLinks: Number(row.total_links),
      uniqueLinks: Number(row.unique_links),
      badLinks: Number(row.bad_links),
      uniqueBadLinks: Number(row.unique_bad_links),
      numPages: Number(row.num_pages),
      durationMs: Number(row.duration_ms),
    });
  }
}

/** An administrator's change of a scan: the scan before and after (the audit log keeps both). */
export interface AdminChange {
  before: Scan;
  after: Scan;
}

/** What other modules read of a scan (reports, schedules, the sample report). */
export type { ScanRow };

/**
 * Queues a scan row exactly as given, with no plan, credit or address check, inside the caller's
 * transaction: only for the server's own sample scan (sample-report.service.ts).
 */
export function insertQueuedScan(db: Kysely<Database>, scan: NewScan): Promise<void> {
  return insertScan(db, scan);
}

/**
 * A new site beyond the plan's websites: SPEC has no status for it, so it is a refused request
 * (400) whose modelState names the address, as the scan form shows field messages (SPEC §8).
 */
function websiteRefusal(resolution: { allowedWebsites: number }): HttpError {
  const message = websiteMessages.limitReached(resolution.allowedWebsites);
  return new HttpError(400, message, { modelState: { url: [message] } });
}

/**
 * SPEC §3's answers to a scan the month's credit does not cover: 12, or 13 with what is left;
 * a new site beyond the plan's websites is thrown as a 400.
 */
function refusal(resolution: Exclude<ScanResolution, { outcome: 'resolved' }>): CreateScanResponse {
  if (resolution.outcome === 'website-limit-reached') throw websiteRefusal(resolution);
  if (resolution.outcome === 'monthly-limit-reached') {
    return {
      status: ScanStatus.MonthlyLimitReached,
      remainingUrls: 0,
      message: scanMessages.monthlyLimitReached,
    };
  }
  return {
    status: ScanStatus.LowCreditWarning,
    remainingUrls: resolution.remainingUrls,
    message: scanMessages.lowCredit(resolution.remainingUrls),
  };
}

/** The request part of a resolved scan (what a schedule keeps). */
function requestOf({
  linkLimit: _linkLimit,
  withheldRules: _withheldRules,
  ...request
}: ResolvedScan): ScanRequest {
  return request;
}

/** A scan as the operator's list shows it: the owner's address, worker, attempts, pending stop. */
export function toAdminScan(
  row: ScanRow & { owner_email: string },
  queue: readonly string[],
): AdminScan {
  return {
    ...toScan(row, queue, 0),
    ownerEmail: row.owner_email,
    worker: row.lease_owner,
    attempts: Number(row.attempts),
    stopAction: row.stop_action,
  };
}

export function toScan(row: ScanRow, queue: readonly string[], inProgressScans: number): Scan {
  const position = queue.indexOf(row.id);
  const created = toDate(row.created_at).toISOString();
  const scheduleSettings = row.schedule_settings_json
    ? (JSON.parse(row.schedule_settings_json) as Scan['scheduleSettings'])
    : null;
  return {
    id: row.id,
    userId: row.user_id,
    url: row.url,
    priority: row.priority,
    status: row.status,
    duration: Number(row.duration_ms),
    dateCreated: created,
    dateCompleted: toOptionalDate(row.completed_at)?.toISOString() ?? null,
    statusCode: row.status_code,
    totalQueuedLinks: Number(row.total_queued_links),
    inProgressScans,
    scanType: row.scan_type,
    totalLinks: Number(row.total_links),
    uniqueLinks: Number(row.unique_links),
    badLinks: Number(row.bad_links),
    uniqueBadLinks: Number(row.unique_bad_links),
    scanSettings: shownSettings(row.settings_json),
    scheduleSettings,
    enableSchedule: toBoolean(row.enable_schedule),
    saveScheduleOnly: toBoolean(row.save_schedule_only),
    sourceScheduleId: row.source_schedule_id,
    jobCreated: created,
    jobStarted: toOptionalDate(row.started_at)?.toISOString() ?? null,
    logMessage: row.log_message,
    queuePosition: position >= 0 && row.status === ScanStatus.Queued ? position + 1 : null,
  };
}

/** A scan's counts less the broken links its owner ignored (issue 27 triage). */
function withoutIgnoredLinks(
  scan: Scan,
  ignored: { badLinks: number; uniqueBadLinks: number } | undefined,
): Scan {
  if (!ignored) return scan;
  return {
    ...scan,
    badLinks: Math.max(0, scan.badLinks - ignored.badLinks),
    uniqueBadLinks: Math.max(0, scan.uniqueBadLinks - ignored.uniqueBadLinks),
    ignoredBadLinks: ignored.badLinks,
  };
}

export { isFinishedStatus };
