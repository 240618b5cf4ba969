import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  brokenAnchorReason,
  limits,
  postCrawlPhases,
  renderingSummarySchema,
  ruleCategoryLabel,
  type ReportQuery,
  type ReportSummary,
  type ScanSummary,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { scanRules } from '../scans/scan-rules.js';
import type { ScanRow } from '../scans/scans.service.js';
import {
  brokenAnchorLinks,
  fileTypes,
  linkPage,
  pagePage,
  pageSizeBuckets,
  reasonCounts,
  ruleCategoryCounts,
  rulePage,
} from './reports.repository.js';
import { shownSettings } from '../scans/scan-credentials.js';

/**
 * The report model: one scan's report as the summary screen, the print view (`/printreport/{id}`,
 * print flag 1) and any later rendering (a PDF) show it: figures, chart data, top broken links per
 * failure type (broken anchors among them), fattest pages and rule samples. Built from the stored
 * results only; who may read it is the caller's check.
 */
export async function reportModel(db: Kysely<Database>, scan: ScanRow): Promise<ReportSummary> {
  return assembleReport(scan, await reportFigures(db, scan.id));
}

/** The report's figures read from a scan's result rows (not from the scan's own row). */
export interface ReportFigures {
  reasons: Awaited<ReturnType<typeof reasonCounts>>;
  buckets: Awaited<ReturnType<typeof pageSizeBuckets>>;
  types: Awaited<ReturnType<typeof fileTypes>>;
  categories: Awaited<ReturnType<typeof ruleCategoryCounts>>;
  fattest: Awaited<ReturnType<typeof pagePage>>;
  rules: Awaited<ReturnType<typeof rulePage>>;
  brokenSamples: ReportSummary['brokenSamples'];
  /** Links to a #fragment their page does not have (the Broken Anchor reason). */
  anchorLinks: number;
}

/**
 * Which run of the scan the figures belong to: a requeued scan runs again (new attempt, new
 * completion), and a running scan's figures change with every status, so they are shared by
 * concurrent readers but kept only once the scan is finished.
 */
export function reportFiguresKey(scan: ScanRow): string {
  const completed = scan.completed_at === null ? '' : String(scan.completed_at);
  return `${scan.id}|${scan.status}|${scan.attempts}|${completed}`;
}

export async function reportFigures(db: Kysely<Database>, id: string): Promise<ReportFigures> {
  const [reasons, buckets, types, categories, fattest, rules, anchorLinks] = await Promise.all([
    reasonCounts(db, id),
    pageSizeBuckets(db, id),
    fileTypes(db, id),
    ruleCategoryCounts(db, id),
    pagePage(db, id, defaultQuery({ pageSize: 1 }), limits.fattestPageBytes),
    rulePage(db, id, defaultQuery({ pageSize: limits.ruleSamples })),
    brokenAnchorLinks(db, id),
  ]);
  const sampled =
    anchorLinks > 0
      ? [...reasons.map(({ failureReason }) => failureReason), brokenAnchorReason]
      : reasons.map(({ failureReason }) => failureReason);
  const brokenSamples = await Promise.all(
    sampled.map(async (failureReason) => ({
      failureReason,
      links: (
        await linkPage(
          db,
          id,
          defaultQuery({ reason: failureReason, pageSize: limits.brokenLinkSamplesPerReason }),
        )
      ).rows,
    })),
  );
  return { reasons, buckets, types, categories, fattest, rules, brokenSamples, anchorLinks };
}

/** The report model of `scan` from its own row and its figures. */
export function assembleReport(scan: ScanRow, figures: ReportFigures): ReportSummary {
  const { buckets, types, fattest, rules, brokenSamples } = figures;
  const summary = storedSummary(scan);
  const pages = Number(scan.num_pages);
  // The settings without their credentials' values (issue 36).
  const settings = shownSettings(scan.settings_json);
  return {
    scanId: scan.id,
    url: scan.url,
    status: scan.status,
    logMessage: scan.log_message,
    numPages: pages,
    totalLinks: Number(scan.total_links),
    uniqueLinks: Number(scan.unique_links),
    badLinks: Number(scan.bad_links),
    uniqueBadLinks: Number(scan.unique_bad_links),
    brokenAnchors: figures.anchorLinks,
    duplicateAnchors: summary.duplicateAnchors,
    fattestPages: fattest.total,
    certificateProblems: summary.certificateProblems,
    duration: Number(scan.duration_ms),
    // The settings as the owner asked for them (SPEC): the stored resolved scan less its linkLimit.
    scanSettingsJson: JSON.stringify(settings),
    reasons: brokenReasons(figures),
    pageSizeBuckets: buckets.map((count, index) => ({
      label: bucketLabels[index] ?? '',
      pages: count,
    })),
    contentTypeSizes: types,
    ruleCategories: ruleCategoryChecks(figures.categories, settings.selectedRules, pages),
    brokenSamples,
    ruleSamples: rules.rows,
    ...(summary.cutShort && summary.cutShort.length > 0 ? { cutShort: summary.cutShort } : {}),
    unverifiedLinks: summary.uniqueUnverifiedLinks,
    ...(summary.rendering ? { rendering: summary.rendering } : {}),
  };
}

/**
 * The one count of broken links by reason (issue 37) that the summary's figures, its pie, its
 * sample list and the PDF all read: SPEC §8's reasons, then Broken Anchor (the link tab's own
 * reason) with every link to a missing #fragment.
 */
function brokenReasons(figures: ReportFigures): ReportSummary['reasons'] {
  return figures.anchorLinks > 0
    ? [
        ...figures.reasons,
        { failureReason: brokenAnchorReason, numberOfReferences: figures.anchorLinks },
      ]
    : figures.reasons;
}

/**
 * Each rule category the scan checked, with or without findings (issue 37): its checks are its
 * pages × its rules that ran; failed = the pairs with a finding, passed = the rest. A category
 * with findings of rules not among the selected ones (none today) counts the rules that found.
 */
function ruleCategoryChecks(
  categories: ReportFigures['categories'],
  selectedRules: readonly number[],
  pages: number,
): ReportSummary['ruleCategories'] {
  const rulesPerCategory = new Map<number, number>();
  const categoryOf = new Map(scanRules().map((rule) => [rule.linkAuditorRuleID, rule.categoryID]));
  for (const id of selectedRules) {
    const category = categoryOf.get(id);
    if (category !== undefined)
      rulesPerCategory.set(category, (rulesPerCategory.get(category) ?? 0) + 1);
  }
  const found = new Map(categories.map((category) => [category.categoryID, category]));
  const ids = [...new Set([...rulesPerCategory.keys(), ...found.keys()])].sort((a, b) => a - b);
  return ids.map((categoryID) => {
    const failed = found.get(categoryID)?.failedChecks ?? 0;
    const rules = Math.max(
      rulesPerCategory.get(categoryID) ?? 0,
      found.get(categoryID)?.rules ?? 0,
    );
    return {
      categoryID,
      name: ruleCategoryLabel(categoryID),
      failed,
      passed: Math.max(0, pages * rules - failed),
    };
  });
}

/**
 * The figures the report takes from a scan's stored summary (`summary_json`: the engine's
 * ScanSummary, written when the scan finishes). A scan without one yet reads as zeros.
 */
const storedSummarySchema = z.object({
  duplicateAnchors: z.number().default(0),
  certificateProblems: z.number().default(0),
  cutShort: z.array(z.enum(postCrawlPhases)).optional(),
  uniqueUnverifiedLinks: z.number().default(0),
  rendering: renderingSummarySchema.optional(),
}) satisfies z.ZodType<
  Pick<
    ScanSummary,
    'duplicateAnchors' | 'certificateProblems' | 'cutShort' | 'uniqueUnverifiedLinks' | 'rendering'
  >
>;

function storedSummary(scan: ScanRow): z.infer<typeof storedSummarySchema> {
  return storedSummarySchema.parse(scan.summary_json ? JSON.parse(scan.summary_json) : {});
}

const bucketLabels = ['< 1 MB', '1-2 MB', '2-3 MB', '3-4 MB', '4-5 MB', '> 5 MB'];

/** A report query with the server's defaults, as the tabs' reads take it. */
export function defaultQuery(overrides: Partial<ReportQuery>): ReportQuery {
  return {
    page: 1,
    pageSize: 50,
    sortOrder: 'asc',
    status: 'broken',
    groupBy: 'none',
    format: 'json',
    triage: 'open',
    ...overrides,
  };
}
