import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import {
  emptyScanSummary,
  endingStatus,
  resolvedScanSchema,
  scanFailureMessages,
  ScanStatus,
} from '@linkaudit/core';
import {
  crawlSettingsFor,
  type CrawlSettings,
  type DoneEvent,
  type EngineOptions,
  type PhaseEvent,
  type ScanResume,
} from '@linkaudit/engine';
import type { Clock } from '../../clock.js';
import { refreshStatistics, type DatabaseHandle } from '../../db/database.js';
import type { AddressPolicy } from './address-guard.js';
import type { ScanEngine } from './scan-engine.js';
import { scanResumeOf } from './scan-checkpoint.js';
import { claimNextScan, type QueueFairness } from './scan-queue.repository.js';
import { ScanResultWriter } from './scan-results.js';
import type { ScanUpdates } from './scan-updates.js';
import { openedSettings } from './scan-credentials.js';
import type { SecretBox } from './secret-box.js';
import {
  advanceHeldScan,
  applyStopAction,
  deleteResults,
  finishScan,
  findScan,
  leaseOwners,
  reapExpiredLeases,
  reapLeasesOf,
  renewLease,
  retryAt,
  retryLater,
  runningStatuses,
  type RetryPolicy,
  type ScanRow,
} from './scans.repository.js';
import { isOwnOrphan, leaseOwnerFor } from './worker-identity.js';

export interface ScanWorkerDeps {
  database: DatabaseHandle;
  clock: Clock;
  log: FastifyBaseLogger;
  updates: ScanUpdates;
  policy: AddressPolicy;
  /** Opens the scan's sealed credentials: the engine is handed the settings in clear. */
  secrets: SecretBox;
  /** Runs one scan, in a process of its own or in this one (config SCAN_ISOLATION). */
  engine: ScanEngine;
  leaseSeconds: number;
  /** Starts of a scan and the wait before each retry (lost lease, engine exception). */
  retry: RetryPolicy;
  /** Running scans per user by plan priority: round robin between users under their cap. */
  fairness: QueueFairness;
  /**
   * This worker's name across restarts (config WORKER_ID, by default the host name): at start it
   * takes back at once the scans an earlier life of it held (worker-identity.ts).
   */
  workerId?: string;
  /** Tests shorten retries and timeouts. */
  engineOptions?: Partial<EngineOptions>;
  /** How long an idle worker waits before looking at the queue again (a wake() is sooner). */
  pollMs?: number;
  /** The address policy for one scan (the sample scan may reach the server's own host). */
  policyFor?: (scan: ScanRow) => Promise<AddressPolicy>;
  /** Called once a scan's outcome is recorded (schedules mail their owners about changes). */
  onFinished?: (scanId: string) => Promise<unknown>;
  /**
   * The Finalizing step, once the results are written and before the end is: what the report's
   * reads need is stored from them (issue 34). A failure is logged; the reads then compute it.
   */
  finishing?: (scanId: string) => Promise<unknown>;
}

const heartbeatMs = 1000;
const reapEveryMs = 2000;

/**
 * Leases run on real time, never on the service clock (deps.clock, which tests and the billing
 * sandbox move for schedules and renewals): a moved clock would expire every lease at once and
 * hand running scans to a second attempt.
 */
function leaseNow(): Date {
  return new Date();
}

/**
 * In-process scan workers: each loop claims the next queued scan (scan-queue.repository.ts), holds
 * its lease by heartbeat, writes the engine's events in batches (scan-results.ts; the scan holds
 * back while the writer is behind) and records the outcome. Any number of processes may run
 * these against one PostgreSQL database. A cancel (status 8) stops the engine at once when its
 * update reaches this process: published here by the cancel call, or relayed from another
 * process by NOTIFY on PostgreSQL; the heartbeat, which reads the status, still catches one whose
 * update was lost.
 */
export class ScanWorkers {
  readonly workerId: string;
  readonly owner: string;
  readonly #running = new Map<string, AbortController>();
  readonly #loops: Array<Promise<void>> = [];
  #stopped = false;
  #wake: Array<() => void> = [];
  #lastReap = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: ScanWorkerDeps) {
    this.workerId = deps.workerId ?? hostname();
    this.owner = leaseOwnerFor(this.workerId);
  }

  start(concurrency: number): void {
    if (concurrency === 0) return;
    this.#unsubscribe ??= this.deps.updates.subscribe((update) => {
      if (update.status === ScanStatus.Cancelling) this.#running.get(update.scanId)?.abort();
    });
    const orphansBack = this.#takeBackOrphans();
    for (let index = 0; index < concurrency; index++)
      this.#loops.push(orphansBack.then(() => this.#loop()));
  }

  /** A scan was queued: idle loops look at once. */
  wake(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }

  /** Stops claiming; running scans go back to the queue for another worker (or the next start). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.wake();
    for (const controller of this.#running.values()) controller.abort();
    await Promise.all(this.#loops);
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.#reapNow();
        const now = this.deps.clock.now();
        const scan = await claimNextScan(
          this.deps.database,
          this.owner,
          now,
          this.#leaseEnd(),
          this.deps.fairness,
        );
        if (scan) await this.#run(scan);
        else await this.#idle();
      } catch (error) {
        if (this.#stopped) return;
        this.deps.log.error({ err: error }, 'scan worker error');
        await this.#idle();
      }
    }
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.deps.pollMs ?? 1000);
      this.#wake.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * The scans an earlier life of this worker held when it died go back to the queue now (and
   * are resumed from their checkpoint), not when their leases expire.
   */
  async #takeBackOrphans(): Promise<void> {
    try {
      const { db } = this.deps.database;
      const orphaned = (await leaseOwners(db)).filter((owner) => isOwnOrphan(owner, this.workerId));
      const now = leaseNow();
      const taken = await reapLeasesOf(db, orphaned, now, this.deps.retry);
      if (taken.length > 0)
        this.deps.log.warn({ scans: taken }, 'took back scans of a dead worker');
    } catch (error) {
      this.deps.log.error({ err: error }, 'taking back orphaned scans failed');
    }
  }

  async #reapNow(): Promise<void> {
    const now = leaseNow();
    if (now.getTime() - this.#lastReap < reapEveryMs) return;
    this.#lastReap = now.getTime();
    const reaped = await reapExpiredLeases(this.deps.database.db, now, this.deps.retry);
    if (reaped.length > 0) this.deps.log.warn({ scans: reaped }, 'scans with expired leases');
  }

  #leaseEnd(): Date {
    return new Date(leaseNow().getTime() + this.deps.leaseSeconds * 1000);
  }

  async #run(scan: ScanRow): Promise<void> {
    const { db } = this.deps.database;
    const controller = new AbortController();
    this.#running.set(scan.id, controller);
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      renewLease(db, scan.id, this.owner, this.#leaseEnd()).then(
        (status) => {
          if (status === undefined) leaseLost = true;
          if (status === undefined || status === ScanStatus.Cancelling) controller.abort();
        },
        (error: unknown) => this.deps.log.warn({ err: error }, 'lease renewal failed'),
      );
    }, heartbeatMs);
    try {
      // A scan started before (a worker died or stopped) resumes from what it wrote.
      const resume = scan.attempts > 1 ? await scanResumeOf(db, scan.id) : undefined;
      await deleteResults(db, scan.id);
      this.#publish(scan, ScanStatus.InProgress);
      const phases = new ScanPhases((from, to) => this.#advance(scan, from, to));
      const writer = new ScanResultWriter(
        db,
        scan.id,
        (totals) =>
          this.deps.updates.publish({
            scanId: scan.id,
            userId: scan.user_id,
            status: phases.status,
            ...totals,
          }),
        this.owner,
      );
      const outcome = await this.#scan(scan, controller.signal, writer, resume, phases);
      await phases.settled();
      if (leaseLost) return;
      if (this.#stopped) {
        await this.#handBack(scan);
        return;
      }
      if (outcome.engineFailed && (await this.#retryLater(scan))) return;
      await this.#finish(scan, outcome.done, writer);
    } finally {
      clearInterval(heartbeat);
      // (A requeued scan may already run again in another loop of this process.)
      if (this.#running.get(scan.id) === controller) this.#running.delete(scan.id);
    }
  }

  async #scan(
    scan: ScanRow,
    signal: AbortSignal,
    writer: ScanResultWriter,
    resume: ScanResume | undefined,
    phases: ScanPhases,
  ): Promise<{ done: DoneEvent; engineFailed: boolean }> {
    try {
      const policy = (await this.deps.policyFor?.(scan)) ?? this.deps.policy;
      const done = await this.deps.engine(crawlSettingsOf(scan, this.deps.secrets), {
        engineOptions: this.deps.engineOptions,
        resume,
        signal,
        policy,
        onEvent: (event) => {
          if (event.type === 'phase') phases.enter(event.phase);
          writer.add(event);
        },
        backpressure: writer,
      });
      return { done, engineFailed: false };
    } catch (error) {
      this.deps.log.error({ err: error, scanId: scan.id }, 'scan engine failed');
      const { maxAttempts } = this.deps.retry;
      const message =
        maxAttempts > 1
          ? `Engine Exception: the scan stopped unexpectedly ${scan.attempts} times and was given up.`
          : 'Engine Exception: the scan stopped unexpectedly.';
      return { done: failedDone(scan.url, message), engineFailed: true };
    }
  }

  /**
   * An attempt the engine broke off (issue 36): back to the queue after a backoff while starts
   * are left; false when none are (it ends Failed) or it was being stopped (it ends as asked).
   */
  async #retryLater(scan: ScanRow): Promise<boolean> {
    const attempts = Number(scan.attempts);
    if (attempts >= this.deps.retry.maxAttempts) return false;
    const notBefore = retryAt(leaseNow(), attempts, this.deps.retry);
    const message = `Engine Exception: the scan stopped unexpectedly; it starts again at ${notBefore.toISOString()} (attempt ${attempts + 1} of ${this.deps.retry.maxAttempts}).`;
    if (!(await retryLater(this.deps.database.db, scan.id, this.owner, notBefore, message)))
      return false;
    this.deps.log.warn({ scanId: scan.id, attempts, notBefore }, 'scan engine failed: retry later');
    this.#publish(scan, ScanStatus.Queued);
    return true;
  }

  /**
   * This process stops: a running scan goes back to the queue for another worker (or the next
   * start); one an administrator stopped is requeued or failed as asked.
   */
  async #handBack(scan: ScanRow): Promise<void> {
    const { db } = this.deps.database;
    const running = [...runningStatuses];
    if (
      await advanceHeldScan(db, scan.id, this.owner, running, ScanStatus.Queued, {
        leaseOwner: null,
      })
    )
      return;
    const status = await applyStopAction(db, scan.id, this.owner, this.deps.clock.now());
    if (status !== undefined) this.#publish(scan, status);
  }

  /**
   * 5 → 9 → 11 → the engine's outcome (or 2 when a cancel came in), each step only while the
   * lease is this worker's. An administrator's stop (requeue or fail) is applied last, by this
   * worker, so the next attempt starts only after this one has written its last row.
   */
  async #finish(scan: ScanRow, done: DoneEvent, writer: ScanResultWriter): Promise<void> {
    const { db } = this.deps.database;
    // The engine's phases moved it on as they came (9, 11); a scan that ended before them goes
    // through them now. A cancelling scan (8) stays as it is.
    await this.#advance(scan, [ScanStatus.InProgress], ScanStatus.RuleChecking);
    await this.#advance(scan, [ScanStatus.RuleChecking], ScanStatus.Finalizing);
    let status: number = endingStatus(done);
    let logMessage = done.error ?? null;
    let written = false;
    try {
      await writer.finish(done);
      written = true;
    } catch (error) {
      this.deps.log.error({ err: error, scanId: scan.id }, 'writing scan results failed');
      status = ScanStatus.Failed;
      logMessage = scanFailureMessages.resultsNotSaved;
    }
    if (written) {
      await this.deps
        .finishing?.(scan.id)
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, scanId: scan.id }, 'storing report figures failed'),
        );
    }
    const current = await findScan(db, scan.id);
    if (current?.status === ScanStatus.Cancelling) status = ScanStatus.Cancelled;
    const finished = await finishScan(db, scan.id, this.owner, {
      status,
      completedAt: this.deps.clock.now(),
      logMessage,
      summaryJson: JSON.stringify(done.summary),
    });
    if (!finished) {
      const stopped = await applyStopAction(db, scan.id, this.owner, this.deps.clock.now());
      if (stopped === undefined) return;
      this.#publish(scan, stopped);
      if (stopped === ScanStatus.Queued) this.wake();
      return;
    }
    this.#publish(scan, status);
    // After the status: the user sees the scan ended without waiting for the statistics.
    await refreshStatistics(this.deps.database, done.summary.totalLinks).catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'refreshing planner statistics failed'),
    );
    await this.deps.onFinished?.(scan.id);
  }

  /** One step of 5 → 9 → 11 while the lease is this worker's; published when it happened. */
  async #advance(scan: ScanRow, from: readonly number[], to: number): Promise<boolean> {
    const moved = await advanceHeldScan(this.deps.database.db, scan.id, this.owner, from, to);
    if (moved) this.#publish(scan, to);
    return moved;
  }

  #publish(scan: ScanRow, status: number): void {
    this.deps.updates.publish({
      scanId: scan.id,
      userId: scan.user_id,
      status,
      totalQueuedLinks: 0,
      totalLinks: 0,
      uniqueLinks: 0,
      badLinks: 0,
      uniqueBadLinks: 0,
      numPages: 0,
      durationMs: 0,
    });
  }
}

/**
 * The crawl of a queued scan: its settings as resolved at submit (plan and credit applied once,
 * by resolveScan), only parsed here; the row's URL is the one its submission checked.
 */
function crawlSettingsOf(scan: ScanRow, secrets: SecretBox): CrawlSettings {
  const resolved = resolvedScanSchema.parse(openedSettings(secrets, scan.settings_json));
  return crawlSettingsFor({ ...resolved, url: scan.url });
}

function failedDone(startUrl: string, error: string): DoneEvent {
  return {
    type: 'done',
    stoppedBy: 'error',
    error,
    summary: emptyScanSummary(startUrl),
  };
}

/**
 * A running scan's status as the engine's phases move it (issue 34): In progress while it
 * crawls, Rule checking once every page is read (site rules, suggested fixes), Finalizing for the
 * site analysis. Each step is written in order, one at a time, as its phase event comes.
 */
class ScanPhases {
  status: number = ScanStatus.InProgress;
  #steps: Promise<void> = Promise.resolve();

  constructor(private readonly advance: (from: number[], to: number) => Promise<boolean>) {}

  enter(phase: PhaseEvent['phase']): void {
    const [from, to] =
      phase === 'rule-checking'
        ? [[ScanStatus.InProgress], ScanStatus.RuleChecking]
        : [[ScanStatus.InProgress, ScanStatus.RuleChecking], ScanStatus.Finalizing];
    this.#steps = this.#steps
      .then(() => this.advance(from, to))
      .then(
        (moved) => {
          if (moved) this.status = to;
        },
        () => undefined, // the next step, or the scan's end, tries again
      );
  }

  /** Resolves once every phase step asked for is written. */
  settled(): Promise<void> {
    return this.#steps;
  }
}
