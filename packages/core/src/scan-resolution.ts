import { z } from 'zod';
import { limits } from './limits.js';
import type { Plan } from './plans.js';
import { RuleCategory, ruleCategoryOfId } from './rule.js';
import { ScanLimitOption, scanRequestSchema, type ScanRequest } from './scan-settings.js';
import { siteOf } from './websites.js';

/**
 * ResolvedScan: a request as its owner's plan allows it, stored once at submit (settings_json)
 * and only parsed by the worker. It is the request's own fields (what the API shows back as
 * `scanSettings`) plus `linkLimit`, the number of unique URLs the scan may check, and
 * `withheldRules`, the requested rules the plan does not include (Valid HTML without HTML check):
 * the decision made at submit, which the worker never revisits.
 */
export const resolvedScanSchema = scanRequestSchema
  .extend({
    linkLimit: z.number().int().min(0).optional(),
    withheldRules: z.array(z.number().int()).optional(),
  })
  .transform(({ linkLimit, withheldRules, ...request }) => ({
    ...request,
    withheldRules: withheldRules ?? [],
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

/** What resolveScan may ask beyond the plan: the month's credit and the websites kept. */
export interface ScanAllowance {
  /** Without it (a schedule saved for later, an admin's requeue) the credit is not asked. */
  credit?: MonthlyCredit | undefined;
  /**
   * The owner's kept sites (`sitesOf` their scans not in the trash and their schedules); without
   * it the websites allowance is not asked (an admin's requeue, a schedule's run).
   */
  keptSites?: ReadonlySet<string> | undefined;
}

export type ScanResolution =
  | { outcome: 'resolved'; scan: ResolvedScan }
  /** A new site beyond the plan's websites (DESIGN §4); scanning a kept site always works. */
  | { outcome: 'website-limit-reached'; allowedWebsites: number }
  /** Nothing is left this month (SPEC status 12). */
  | { outcome: 'monthly-limit-reached' }
  /** The scan may check more URLs than are left (SPEC status 13). */
  | { outcome: 'low-credit'; remainingUrls: number };

/**
 * The one place a plan is applied to a scan (SPEC §5/§6, DESIGN §4). Free scans are Limited to
 * the plan's cap, without rules or anchors; a paid scan keeps its options and an "unlimited" one
 * is capped by the plan's urlsPerScan; Valid HTML rules are withheld on a plan without HTML
 * check. With `keptSites`, a new site must fit the plan's websites; with `credit`, the scan must
 * also fit the month's credit.
 */
export function resolveScan(
  request: ScanRequest,
  plan: Plan,
  allowance: ScanAllowance = {},
): ScanResolution {
  const { credit, keptSites } = allowance;
  if (keptSites && isNewSiteBeyondPlan(request.url, plan, keptSites)) {
    return { outcome: 'website-limit-reached', allowedWebsites: plan.websites ?? 0 };
  }
  const { settings, withheldRules } = withinPlan(request, plan);
  const linkLimit =
    settings.scanLimitOption === ScanLimitOption.Limited
      ? settings.maxLinkAmount
      : plan.urlsPerScan;
  if (credit && credit.remainingUrls <= 0) return { outcome: 'monthly-limit-reached' };
  if (credit && linkLimit > credit.remainingUrls) {
    return { outcome: 'low-credit', remainingUrls: credit.remainingUrls };
  }
  return { outcome: 'resolved', scan: { ...settings, linkLimit, withheldRules } };
}

function isNewSiteBeyondPlan(url: string, plan: Plan, keptSites: ReadonlySet<string>): boolean {
  if (plan.websites === null || keptSites.has(siteOf(url))) return false;
  return keptSites.size >= plan.websites;
}

/** Valid HTML rules (category 3) of a request, which only plans with htmlCheck run. */
export function htmlCheckRules(ruleIds: readonly number[]): number[] {
  return ruleIds.filter((id) => ruleCategoryOfId(id) === RuleCategory.ValidHtml);
}

function withinPlan(
  request: ScanRequest,
  plan: Plan,
): { settings: ScanRequest; withheldRules: number[] } {
  const maxLinkAmount = Math.min(request.maxLinkAmount, plan.urlsPerScan);
  if (!plan.rendering && request.renderPages !== undefined) {
    // (Left out, not set false: a request without it reads back as SPEC has it.)
    const { renderPages: _notOnThisPlan, ...rest } = request;
    request = rest;
  }
  if (plan.paid) {
    const withheldRules = plan.htmlCheck ? [] : htmlCheckRules(request.selectedRules);
    const selectedRules = request.selectedRules.filter((id) => !withheldRules.includes(id));
    const settings =
      request.scanLimitOption === ScanLimitOption.Limited
        ? { ...request, maxLinkAmount, selectedRules }
        : { ...request, selectedRules };
    return { settings, withheldRules };
  }
  // Free runs no rules at all (SPEC §5): nothing is "withheld", rule selection is not offered.
  const settings: ScanRequest = {
    ...request,
    scanLimitOption: ScanLimitOption.Limited,
    maxLinkAmount,
    selectedRules: [],
    checkAnchors: false,
    // Free may stop a scan sooner, not later: the SPEC's 4 hours is its ceiling.
    timeoutAfter: Math.min(request.timeoutAfter, limits.defaultTimeoutHours),
  };
  return { settings, withheldRules: [] };
}
