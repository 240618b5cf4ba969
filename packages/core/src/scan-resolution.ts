import { z } from 'zod';
import { limits } from './limits.js';
import type { Plan } from './plans.js';
import { ScanLimitOption, scanRequestSchema, type ScanRequest } from './scan-settings.js';

/**
 * ResolvedScan: a request as its owner's plan allows it, stored once at submit (settings_json)
 * and only parsed by the worker. It is the request's own fields (what the API shows back as
 * `scanSettings`) plus `linkLimit`, the number of unique URLs the scan may check.
 */
export const resolvedScanSchema = scanRequestSchema
  .extend({ linkLimit: z.number().int().min(0).optional() })
  .transform(({ linkLimit, ...request }) => ({
    ...request,
    // Rows stored before limits were resolved at submit: a Limited one was already capped then;
    // an "unlimited" one gets the smallest plan's cap (never more than was paid for).
    linkLimit:
      linkLimit ??
      (request.scanLimitOption === ScanLimitOption.Limited
        ? request.maxLinkAmount
        : limits.freeMaxLinksPerScan),
  }));
export type ResolvedScan = z.output<typeof resolvedScanSchema>;

/** URLs left of the owner's monthly allowance (plan.urlsPerMonth minus this month's use). */
export interface MonthlyCredit {
  remainingUrls: number;
}

export type ScanResolution =
  | { outcome: 'resolved'; scan: ResolvedScan }
  /** Nothing is left this month (SPEC status 12). */
  | { outcome: 'monthly-limit-reached' }
  /** The scan may check more URLs than are left (SPEC status 13). */
  | { outcome: 'low-credit'; remainingUrls: number };

/**
 * The one place a plan is applied to a scan (SPEC §5/§6, DESIGN §4). Free scans are Limited to
 * the plan's cap, without rules or anchors; a paid scan keeps its options and an "unlimited" one
 * is capped by the plan's urlsPerScan. With `credit`, the scan must also fit the month's credit;
 * without it (a schedule saved for later, an admin's requeue) the credit is not asked.
 */
export function resolveScan(
  request: ScanRequest,
  plan: Plan,
  credit?: MonthlyCredit,
): ScanResolution {
  const settings = withinPlan(request, plan);
  const linkLimit =
    settings.scanLimitOption === ScanLimitOption.Limited
      ? settings.maxLinkAmount
      : plan.urlsPerScan;
  if (credit && credit.remainingUrls <= 0) return { outcome: 'monthly-limit-reached' };
  if (credit && linkLimit > credit.remainingUrls) {
    return { outcome: 'low-credit', remainingUrls: credit.remainingUrls };
  }
  return { outcome: 'resolved', scan: { ...settings, linkLimit } };
}

function withinPlan(request: ScanRequest, plan: Plan): ScanRequest {
  const maxLinkAmount = Math.min(request.maxLinkAmount, plan.urlsPerScan);
  if (plan.paid) {
    return request.scanLimitOption === ScanLimitOption.Limited
      ? { ...request, maxLinkAmount }
      : request;
  }
  return {
    ...request,
    scanLimitOption: ScanLimitOption.Limited,
    maxLinkAmount,
    selectedRules: [],
    checkAnchors: false,
  };
}
