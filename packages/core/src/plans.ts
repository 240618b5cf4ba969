import type { PlanId } from './account.js';
import { limits } from './limits.js';

/**
 * The plans of DESIGN §4 in one config: SPEC §3 names the allowances, SPEC §9 only the Free limit
 * of 5000 links per scan and the prices; the other numbers are ours.
 */
export interface Plan {
  id: PlanId;
  monthlyPriceUsd: number;
  /** Websites a user may keep; null = unlimited. */
  websites: number | null;
  /** Unique URLs one scan may check (the cap of an "unlimited" scan). */
  urlsPerScan: number;
  /** Unique URLs checked by this month's completed scans. */
  urlsPerMonth: number;
  /** Scheduled scans; null = unlimited. */
  schedules: number | null;
  htmlCheck: boolean;
  /** Higher runs first in the scan queue. */
  queuePriority: number;
  /**
   * Scans of one user of this plan running at once (issue 36: one user's queue must not take
   * every worker); the operator may change it (SCAN_RUNNING_PER_USER).
   */
  runningScansPerUser: number;
  popular: boolean;
  trialDays: number;
  /** Free scans are always Limited, without schedules, rule selection or anchor checking (SPEC §5, §6). */
  paid: boolean;
  /** Scans may render pages in a browser (issue 35: a browser per scan costs the service most). */
  rendering: boolean;
}

const planTable: Record<PlanId, Plan> = {
  Free: {
    id: 'Free',
    monthlyPriceUsd: 0,
    websites: 3,
    urlsPerScan: limits.freeMaxLinksPerScan,
    urlsPerMonth: 25_000,
    schedules: 0,
    htmlCheck: false,
    queuePriority: 1,
    runningScansPerUser: 1,
    popular: false,
    trialDays: 0,
    paid: false,
    rendering: false,
  },
  Basic: {
    id: 'Basic',
    monthlyPriceUsd: 9.99,
    websites: 10,
    urlsPerScan: 20_000,
    urlsPerMonth: 200_000,
    schedules: 5,
    htmlCheck: false,
    queuePriority: 2,
    runningScansPerUser: 2,
    popular: false,
    trialDays: limits.trialDays,
    paid: true,
    rendering: true,
  },
  Premium: {
    id: 'Premium',
    monthlyPriceUsd: 29.99,
    websites: 50,
    urlsPerScan: 100_000,
    urlsPerMonth: 1_000_000,
    schedules: 25,
    htmlCheck: true,
    queuePriority: 3,
    runningScansPerUser: 3,
    popular: true,
    trialDays: limits.trialDays,
    paid: true,
    rendering: true,
  },
  Enterprise: {
    id: 'Enterprise',
    monthlyPriceUsd: 59.99,
    websites: null,
    urlsPerScan: 500_000,
    urlsPerMonth: 5_000_000,
    schedules: null,
    htmlCheck: true,
    queuePriority: 4,
    runningScansPerUser: 5,
    popular: false,
    trialDays: limits.trialDays,
    paid: true,
    rendering: true,
  },
};

export const plans: Readonly<Record<PlanId, Plan>> = planTable;

/**
 * An operator's own cap of URLs per Enterprise scan (ENTERPRISE_URLS_PER_SCAN), applied once when
 * the server starts, before any scan is resolved: a hosted service for shops and intranets of a
 * million pages sets it above the 500,000 of the price list. Every reader of the plans sees it.
 */
export function setEnterpriseUrlsPerScan(urls: number): void {
  planTable.Enterprise = { ...planTable.Enterprise, urlsPerScan: urls };
}

/** The plan of a stored id; unknown or missing ids are Free (never more than was paid for). */
export function planOf(id: string | null | undefined): Plan {
  return (id && Object.hasOwn(plans, id) ? plans[id as PlanId] : undefined) ?? plans.Free;
}

/** A plan id as typed by an operator, in any case; undefined when it names no plan. */
export function parsePlanId(input: string): PlanId | undefined {
  const found = Object.keys(plans).find((id) => id.toLowerCase() === input.trim().toLowerCase());
  return found as PlanId | undefined;
}
