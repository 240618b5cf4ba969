import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  planOf,
  resolveScan,
  ScanDepth,
  ScanLimitOption,
  scanRequestSchema,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { AddressPolicy } from '../scans/address-guard.js';
import { scanRules } from '../scans/scan-rules.js';
import { insertQueuedScan, type ScanRow } from '../scans/scans.service.js';
import { ensureSystemUser } from '../accounts/accounts.service.js';
import { claimSampleScanKey, findSampleScanId, sampleOwner } from './sample-report.repository.js';
import { sampleSitePath } from './sample-site.routes.js';

export interface SampleReportDeps {
  db: Kysely<Database>;
  clock: Clock;
  policy: AddressPolicy;
  /** Tells this process's idle workers that a scan was queued. */
  wakeWorkers: () => void;
}

/**
 * The public sample report: at the first start of a server (no sample scan recorded yet) a scan
 * of the server's own demo site is queued for a system user, with anchors, page rank, inclusion
 * and every rule on; anyone may read its report (reports.service.ts).
 */
export class SampleReportService {
  constructor(private readonly deps: SampleReportDeps) {}

  scanId(): Promise<string | undefined> {
    return findSampleScanId(this.deps.db);
  }

  /**
   * Queues the sample scan of `origin`/sample-site/ unless one exists; answers its id. One
   * transaction, keyed by server_meta, so api processes starting together queue it once.
   */
  async ensureQueued(origin: string): Promise<string> {
    const url = new URL(sampleSitePath, origin).href;
    const id = randomUUID();
    const now = this.deps.clock.now();
    const request = scanRequestSchema.parse({
      url,
      scanDepth: ScanDepth.AllPagesBelow,
      scanLimitOption: ScanLimitOption.Limited,
      maxLinkAmount: 500,
      checkAnchors: true,
      checkPageRank: true,
      checkPageInclusion: true,
      selectedRules: scanRules().map((rule) => rule.linkAuditorRuleID),
    });
    // Stored resolved, as every submitted scan is: the worker only reads what is stored.
    const resolution = resolveScan(request, planOf(sampleOwner.planId));
    if (resolution.outcome !== 'resolved') throw new Error('the sample scan has no plan to run on');
    const settings = resolution.scan;
    const queued = await this.deps.db.transaction().execute(async (trx) => {
      await ensureSystemUser(trx, {
        id: sampleOwner.id,
        email: sampleOwner.email,
        firstName: 'LinkAudit',
        lastName: 'Sample report',
        planId: sampleOwner.planId,
        createdAt: now,
      });
      if (!(await claimSampleScanKey(trx, id))) return false;
      await insertQueuedScan(trx, {
        id,
        userId: sampleOwner.id,
        url,
        priority: planOf(sampleOwner.planId).queuePriority,
        scanType: settings.scanDepth,
        settingsJson: JSON.stringify(settings),
        scheduleSettingsJson: null,
        enableSchedule: false,
        saveScheduleOnly: false,
        sourceScheduleId: null,
        createdAt: now,
      });
      return true;
    });
    if (!queued) return (await this.scanId()) ?? id;
    this.deps.wakeWorkers();
    return id;
  }

  /**
   * The address policy a worker applies to a scan: the configured one, plus exactly the sample
   * site's host for the sample scan (the server scanning itself, often on 127.0.0.1). No other
   * scan gains anything, so allowing the sample never opens the guard to users.
   */
  async policyFor(scan: ScanRow): Promise<AddressPolicy> {
    const { policy } = this.deps;
    if (policy.allowPrivate || scan.user_id !== sampleOwner.id) return policy;
    if (scan.id !== (await this.scanId())) return policy;
    const host = new URL(scan.url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
    return { ...policy, allowedHosts: [...policy.allowedHosts, host] };
  }
}
