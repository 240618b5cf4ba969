import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import {
  planOf,
  ScanLimitOption,
  ScanStatus,
  scanSettingsSchema,
  type ScanSettings,
} from '@linkaudit/core';
import { runScan, type DoneEvent, type EngineOptions } from '@linkaudit/engine';
import type { Clock } from '../../clock.js';
import { refreshStatistics, type DatabaseHandle } from '../../db/database.js';
import { findUserById } from '../accounts/accounts.repository.js';
import { scanAddressPolicy, type AddressPolicy } from './address-guard.js';
import { claimNextScan } from './scan-queue.js';
import { ScanResultWriter } from './scan-results.js';
import type { ScanUpdates } from './scan-updates.js';
import {
  changeStatus,
  deleteResults,
  finishScan,
  findScan,
  reapExpiredLeases,
  renewLease,
  type ScanRow,
} from './scans.repository.js';

export interface ScanWorkerDeps {
  database: DatabaseHandle;
  clock: Clock;
  log: FastifyBaseLogger;
  updates: ScanUpdates;
  policy: AddressPolicy;
  leaseSeconds: number;
  maxAttempts: number;
  /** Tests shorten retries and timeouts. */
  engineOptions?: Partial<EngineOptions>;
  /** How long an idle worker waits before looking at the queue again (a wake() is sooner). */
  pollMs?: number;
  /** The address policy for one scan (the sample scan may reach the server's own host). */
  policyFor?: (scan: ScanRow) => Promise<AddressPolicy>;
  /** Called once a scan's outcome is recorded (schedules mail their owners about changes). */
  onFinished?: (scanId: string) => Promise<unknown>;
}

const heartbeatMs = 1000;
const reapEveryMs = 2000;

/**
 * In-process scan workers: each loop claims the next queued scan (scan-queue.ts), holds its lease
 * by heartbeat (which also carries a cancel: status 8 aborts the engine), writes the engine's
 * events in batches (scan-results.ts) and records the outcome. Any number of processes may run
 * these against one PostgreSQL database.
 */
export class ScanWorkers {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly #running = new Map<string, AbortController>();
  readonly #loops: Array<Promise<void>> = [];
  #stopped = false;
  #wake: Array<() => void> = [];
  #lastReap = 0;

  constructor(private readonly deps: ScanWorkerDeps) {}

  start(concurrency: number): void {
    for (let index = 0; index < concurrency; index++) this.#loops.push(this.#loop());
  }

  /** A scan was queued: idle loops look at once. */
  wake(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }

  /** Stops claiming; running scans go back to the queue for another worker (or the next start). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    for (const controller of this.#running.values()) controller.abort();
    await Promise.all(this.#loops);
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.#reapNow();
        const now = this.deps.clock.now();
        const scan = await claimNextScan(this.deps.database, this.owner, now, this.#leaseEnd());
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

  async #reapNow(): Promise<void> {
    const now = this.deps.clock.now();
    if (now.getTime() - this.#lastReap < reapEveryMs) return;
    this.#lastReap = now.getTime();
    const reaped = await reapExpiredLeases(this.deps.database.db, now, this.deps.maxAttempts);
    if (reaped.length > 0) this.deps.log.warn({ scans: reaped }, 'scans with expired leases');
  }

  #leaseEnd(): Date {
    return new Date(this.deps.clock.now().getTime() + this.deps.leaseSeconds * 1000);
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
      await deleteResults(db, scan.id);
      this.#publish(scan, ScanStatus.InProgress);
      const writer = new ScanResultWriter(db, scan.id, (totals) =>
        this.deps.updates.publish({
          scanId: scan.id,
          userId: scan.user_id,
          status: ScanStatus.InProgress,
          ...totals,
        }),
      );
      const done = await this.#scan(scan, controller.signal, writer);
      if (leaseLost) return;
      if (this.#stopped) {
        await changeStatus(db, scan.id, [ScanStatus.InProgress], ScanStatus.Queued, {
          leaseOwner: null,
        });
        return;
      }
      await this.#finish(scan, done, writer);
    } finally {
      clearInterval(heartbeat);
      this.#running.delete(scan.id);
    }
  }

  async #scan(scan: ScanRow, signal: AbortSignal, writer: ScanResultWriter): Promise<DoneEvent> {
    try {
      const policy = (await this.deps.policyFor?.(scan)) ?? this.deps.policy;
      return await runScan(await this.#engineSettings(scan), {
        ...this.deps.engineOptions,
        signal,
        addressPolicy: scanAddressPolicy(policy),
        onEvent: (event) => writer.add(event),
      });
    } catch (error) {
      this.deps.log.error({ err: error, scanId: scan.id }, 'scan engine failed');
      return failedDone(scan.url, 'Engine Exception: the scan stopped unexpectedly.');
    }
  }

  /** The stored settings, with the owner's plan cap for "unlimited". */
  async #engineSettings(scan: ScanRow): Promise<ScanSettings> {
    const settings = scanSettingsSchema.parse(JSON.parse(scan.settings_json));
    const user = await findUserById(this.deps.database.db, scan.user_id);
    const plan = planOf(user?.paidPlanId);
    if (settings.scanLimitOption === ScanLimitOption.Unlimited) {
      settings.scanLimitOption = ScanLimitOption.Limited;
      settings.maxLinkAmount = plan.urlsPerScan;
    }
    return { ...settings, url: scan.url };
  }

  /** 5 → 9 → 11 → the engine's outcome (or 2 when a cancel came in). */
  async #finish(scan: ScanRow, done: DoneEvent, writer: ScanResultWriter): Promise<void> {
    const { db } = this.deps.database;
    if (await changeStatus(db, scan.id, [ScanStatus.InProgress], ScanStatus.RuleChecking)) {
      this.#publish(scan, ScanStatus.RuleChecking);
      await changeStatus(db, scan.id, [ScanStatus.RuleChecking], ScanStatus.Finalizing);
      this.#publish(scan, ScanStatus.Finalizing);
    }
    let status: number = done.status;
    let logMessage = done.error ?? null;
    try {
      await writer.finish(done);
    } catch (error) {
      this.deps.log.error({ err: error, scanId: scan.id }, 'writing scan results failed');
      status = ScanStatus.Failed;
      logMessage = 'Engine Exception: the results could not be saved.';
    }
    await refreshStatistics(this.deps.database).catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'refreshing planner statistics failed'),
    );
    const current = await findScan(db, scan.id);
    if (current?.status === ScanStatus.Cancelling) status = ScanStatus.Cancelled;
    await finishScan(db, scan.id, this.owner, {
      status,
      completedAt: this.deps.clock.now(),
      logMessage,
      summaryJson: JSON.stringify(done.summary),
    });
    this.#publish(scan, status);
    await this.deps.onFinished?.(scan.id);
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

function failedDone(startUrl: string, error: string): DoneEvent {
  return {
    type: 'done',
    status: ScanStatus.Failed,
    stoppedBy: 'error',
    error,
    summary: {
      startUrl,
      pages: 0,
      uniqueLinks: 0,
      totalLinks: 0,
      brokenLinks: 0,
      uniqueBrokenLinks: 0,
      uniqueUnverifiedLinks: 0,
      reasons: {},
      durationMs: 0,
      brokenAnchors: 0,
      duplicateAnchors: 0,
      fattestPages: 0,
      pageSizeBuckets: [0, 0, 0, 0, 0, 0],
      fileTypes: [],
      certificateProblems: 0,
    },
  };
}
