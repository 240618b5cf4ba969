import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  brokenAnchorReason,
  limits,
  postCrawlPhases,
  renderingSummarySchema,
  ruleCategoryLabel,
  scanRequestSchema,
  type ReportQuery,
  type ReportSummary,
  type ScanSummary,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
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
  return { reasons, buckets, types, categories, fattest, rules, brokenSamples };
}

/** The report model of `scan` from its own row and its figures. */
export function assembleReport(scan: ScanRow, figures: ReportFigures): ReportSummary {
  const { reasons, buckets, types, categories, fattest, rules, brokenSamples } = figures;
  const summary = storedSummary(scan);
  const pages = Number(scan.num_pages);
  return {
    scanId: scan.id,
    url: scan.url,
    status: scan.status,
    numPages: pages,
    totalLinks: Number(scan.total_links),
    uniqueLinks: Number(scan.unique_links),
    badLinks: Number(scan.bad_links),
    uniqueBadLinks: Number(scan.unique_bad_links),
    brokenAnchors: summary.brokenAnchors,
    duplicateAnchors: summary.duplicateAnchors,
    fattestPages: fattest.total,
    certificateProblems: summary.certificateProblems,
    duration: Number(scan.duration_ms),
    // The settings as the owner asked for them (SPEC): the stored resolved scan less its linkLimit.
    scanSettingsJson: JSON.stringify(scanRequestSchema.parse(JSON.parse(scan.settings_json))),
    reasons,
    pageSizeBuckets: buckets.map((count, index) => ({
      label: bucketLabels[index] ?? '',
      pages: count,
    })),
    contentTypeSizes: types,
    // Failed = pages with a violation of the category; passed = the other pages.
    ruleCategories: categories.map((category) => ({
      categoryID: category.categoryID,
      name: ruleCategoryLabel(category.categoryID),
      failed: category.count,
      passed: Math.max(0, pages * category.rules - category.count),
    })),
    brokenSamples,
    ruleSamples: rules.rows,
    ...(summary.cutShort && summary.cutShort.length > 0 ? { cutShort: summary.cutShort } : {}),
    unverifiedLinks: summary.uniqueUnverifiedLinks,
    ...(summary.rendering ? { rendering: summary.rendering } : {}),
  };
}

/**
 * The figures the report takes from a scan's stored summary (`summary_json`: the engine's
 * ScanSummary, written when the scan finishes). A scan without one yet reads as zeros.
 */
const storedSummarySchema = z.object({
  brokenAnchors: z.number().default(0),
  duplicateAnchors: z.number().default(0),
  certificateProblems: z.number().default(0),
  cutShort: z.array(z.enum(postCrawlPhases)).optional(),
  uniqueUnverifiedLinks: z.number().default(0),
  rendering: renderingSummarySchema.optional(),
}) satisfies z.ZodType<
  Pick<
    ScanSummary,
    | 'brokenAnchors'
    | 'duplicateAnchors'
    | 'certificateProblems'
    | 'cutShort'
    | 'uniqueUnverifiedLinks'
    | 'rendering'
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
