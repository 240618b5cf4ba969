import { z } from 'zod';
import { accountLanguageSchema } from './account.js';
import { suggestionSchema } from './suggestion.js';
import { postCrawlPhases } from './scan-summary.js';
import { rowTriageSchema, triageFilters } from './triage.js';

/**
 * Report contracts of SPEC §3 (report rows, report data) and §7 (Reports): what
 * /api/report/{summary,link,page,ruleResult,fileType}/{scanId} answer, paged, sorted, filtered
 * and grouped on the server.
 */

const pageNumber = z.coerce.number().int().min(1).max(1_000_000).default(1);
const pageSize = z.coerce.number().int().min(1).max(1000).default(50);

/**
 * Columns a report tab sorts by. One list serves every tab (the query is shared): a key another
 * tab knows sorts by that tab's default, as before; a key no tab knows is refused.
 */
export const reportSortKeys = [
  // link tab
  'targetUri',
  'sourceUri',
  'statusCode',
  'failureReason',
  'referenceCount',
  'line',
  // page tab
  'uri',
  'contentSize',
  'htmlSize',
  'depth',
  'pageRank',
  // page-inclusion tab
  'incomingLinks',
  // rule tab
  'ruleName',
  // duplicate-anchor tab
  'anchor',
  // groups (groupBy)
  'count',
  'key',
] as const;
export type ReportSortKey = (typeof reportSortKeys)[number];

/**
 * The report's tabs (SPEC §7: `/api/report/{tab}/{id}`), each also exported as CSV. SPEC names
 * the first four; duplicate anchors and page inclusion (SPEC §1 findings with no call of their
 * own in SPEC) are two more tabs of the same shape.
 */
export const reportTabs = [
  'link',
  'page',
  'ruleResult',
  'fileType',
  'duplicateAnchor',
  'pageInclusion',
] as const;
export type ReportTab = (typeof reportTabs)[number];

/** Query of every report tab; `format=csv` exports the tab (all rows matching the filter). */
export const reportQuerySchema = z.object({
  page: pageNumber,
  pageSize,
  sortBy: z.enum(reportSortKeys).optional(),
  sortOrder: z.enum(['asc', 'desc']).default('asc'),
  /** Link tab: `broken` (default), `all`, `ok`, `unverified`, `skipped`, `anchor`. */
  status: z.enum(['broken', 'all', 'ok', 'unverified', 'skipped', 'anchor']).default('broken'),
  /** A failure reason label (link tab). */
  reason: z.string().max(60).optional(),
  /** A rule category id (rule tab) or a content type (file-type and page tabs). */
  category: z.string().max(200).optional(),
  /** Link tab: rows of one target or one source page (to expand a group). */
  target: z.string().max(4000).optional(),
  source: z.string().max(4000).optional(),
  groupBy: z.enum(['target', 'source', 'reason', 'none']).default('none'),
  /** Rule tab: rows of one rule only (a rule of the grouped view, expanded). */
  ruleId: z
    .string()
    .regex(/^\d{1,9}$/, { error: 'The rule must be a rule id.' })
    .optional(),
  /** With ruleId: rows of one group of identical findings (ruleGroupSchema's key). */
  group: z.string().max(4000).optional(),
  format: z.enum(['json', 'csv']).default('json'),
  /** Link and rule tabs: rows by their triage mark (issue 27); `open` hides ignored ones. */
  triage: z.enum(triageFilters).default('open'),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** The rule tab's query: its `category` is a rule category id (SPEC §3: 1–5, any other is Other). */
export const ruleReportQuerySchema = reportQuerySchema.extend({
  category: z
    .string()
    .regex(/^(\d{1,9})?$/, { error: 'The category must be a rule category id.' })
    .optional(),
});

/**
 * The rule tab's grouped view (issue 25): counts per rule first, then each rule's findings in
 * groups of identical findings. A finding's group key is what it found (its message) when the rule
 * says, else its snippet: "the same obsolete <font> on 146 pages" is one group.
 */
export const ruleCountSchema = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  ruleCategoryID: z.number().int(),
  ruleURL: z.string().nullable(),
  findings: z.number().int(),
  pages: z.number().int(),
  groups: z.number().int(),
});
export type RuleCount = z.infer<typeof ruleCountSchema>;

/**
 * The group of a rule's finding (issue 25): findings of one rule with the same key are "the
 * same" and the grouped view shows them as one line. The key is what the finding says (its
 * message) with what varies from page to page (addresses, paths, figures) blanked, so "Same title as 2
 * other page(s): …" or "12 KiB sent without Content-Encoding" make one group each; a finding
 * without a message is keyed by the markup it points at (its snippet's first tag: `<head>`,
 * `<font color="red">`), or by its snippet when that is text.
 */
export function ruleGroupKeyOf(
  message: string | null | undefined,
  snippet: string | null | undefined,
): string {
  if (message) {
    return (
      message
        // Addresses: with any scheme (http, file …), or a path (a word with a slash, not a tag).
        .replace(/\b[a-z][a-z\d+.-]*:\/\/[^\s,]+/gi, '\u2026')
        .replace(/(?<![\S])(?!<)[^\s,;"()]*\/[^\s,;"()]*/g, '\u2026')
        .replace(/\u2026(?:,\s*\u2026)+/g, '\u2026')
        .replace(/(?<![\w.])\d+(?:[.,]\d+)*(?![\w])/g, '#')
        .slice(0, 1000)
    );
  }
  const text = (snippet ?? '').trim();
  const tag = /^<[^<>]*>/.exec(text);
  return (tag ? tag[0] : text).slice(0, 1000);
}

/** GET /api/report/ruleCounts/{scanId} (optional `category`): every rule with findings. */
export const ruleCountsQuerySchema = z.object({
  category: ruleReportQuerySchema.shape.category,
  triage: reportQuerySchema.shape.triage,
});
export const ruleCountsReportSchema = z.object({
  rules: z.array(ruleCountSchema),
  findings: z.number().int(),
});
export type RuleCountsReport = z.infer<typeof ruleCountsReportSchema>;

/** GET /api/report/ruleGroups/{scanId}?ruleId=…: one rule's groups, largest first, paged. */
export const ruleGroupsQuerySchema = z.object({
  ruleId: z.string().regex(/^\d{1,9}$/, { error: 'The rule must be a rule id.' }),
  page: pageNumber,
  pageSize,
  triage: reportQuerySchema.shape.triage,
});
export const ruleGroupSchema = z.object({
  /** The group's key: pass it as `group` (with ruleId) to the rule tab to list its rows. */
  key: z.string(),
  /** The group's message and snippet when all its findings share them, else null. */
  message: z.string().nullable(),
  snippet: z.string().nullable(),
  findings: z.number().int(),
  pages: z.number().int(),
  /** The first page (by address) with this finding. */
  firstUri: z.string(),
});
export type RuleGroup = z.infer<typeof ruleGroupSchema>;
export const ruleGroupsReportSchema = z.object({
  lists: z.array(ruleGroupSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type RuleGroupsReport = z.infer<typeof ruleGroupsReportSchema>;

/**
 * The failure label of a link to a #fragment its (working) target page does not have: the link
 * tab lists these among the broken links and offers it as a filter category (`reason`).
 */
export const brokenAnchorReason = 'Broken Anchor';

/** The page-inclusion tab's filters (its `category`). */
export const inclusionCategories = ['orphan', 'inSitemap', 'notInSitemap'] as const;
export type InclusionCategory = (typeof inclusionCategories)[number];

/** The page-inclusion tab's query: its `category` is one of inclusionCategories (or none). */
export const inclusionReportQuerySchema = reportQuerySchema.extend({
  category: z
    .string()
    .regex(new RegExp(`^(${inclusionCategories.join('|')})?$`), {
      error: `The category must be one of ${inclusionCategories.join(', ')}.`,
    })
    .optional(),
});

/** SPEC §3 filterCategories: one entry per filter value with its count. */
export const filterCategorySchema = z.object({
  name: z.string(),
  value: z.string(),
  count: z.number().int(),
  allRules: z.number().int(),
});
export type FilterCategory = z.infer<typeof filterCategorySchema>;

/** RenderingSummary (scan-summary.ts) as the report answers it. */
export const renderingSummarySchema = z.object({
  requested: z.boolean(),
  renderedPages: z.number().int().optional(),
  failedPages: z.number().int().optional(),
  unavailable: z.string().optional(),
  browserRestarts: z.number().int().optional(),
  scriptBuiltPages: z.number().int().optional(),
  scriptBuiltExample: z.string().optional(),
});

export const linkRowSchema = z.object({
  targetUri: z.string(),
  sourceUri: z.string(),
  statusDetail: z.string(),
  statusCode: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  errorMessage: z.string().nullable(),
  referenceCount: z.number().int(),
  element: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  anchor: z.string().nullable(),
  /** The suggested fix for this link (issue 27); null when there is none. */
  suggestion: suggestionSchema.nullable(),
  /** The owner's mark on this broken link or anchor (issue 27 triage); null when unmarked. */
  triage: rowTriageSchema.nullable().optional(),
});
export type LinkRow = z.infer<typeof linkRowSchema>;

export const pageRowSchema = z.object({
  uri: z.string(),
  statusCode: z.number().int().nullable(),
  contentSize: z.number().int(),
  htmlSize: z.number().int(),
  title: z.string().nullable(),
  depth: z.number().int(),
  pageRank: z.number().nullable(),
  contents: z.array(z.object({ contentType: z.string(), totalSize: z.number().int() })),
});
export type PageRow = z.infer<typeof pageRowSchema>;

export const ruleRowSchema = z.object({
  uri: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  ruleCategoryID: z.number().int(),
  ruleNote: z.string().nullable(),
  ruleURL: z.string().nullable(),
  line: z.number().int(),
  column: z.number().int(),
  snippet: z.string().nullable(),
  /** What this violation found, when the rule says more than its note (null otherwise). */
  message: z.string().nullable(),
  /** The owner's mark on this rule's findings on this page (issue 27 triage). */
  triage: rowTriageSchema.nullable().optional(),
});
export type RuleRow = z.infer<typeof ruleRowSchema>;

export const fileTypeRowSchema = z.object({
  contentType: z.string(),
  count: z.number().int(),
  totalSize: z.number().int(),
});
export type FileTypeRow = z.infer<typeof fileTypeRowSchema>;

/** An id (or a[name]) defined again on a page: where it repeats and where it was first. */
export const duplicateAnchorRowSchema = z.object({
  uri: z.string(),
  anchor: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  firstLine: z.number().int(),
  firstColumn: z.number().int(),
});
export type DuplicateAnchorRow = z.infer<typeof duplicateAnchorRowSchema>;

/** A page's inclusion: who links to it, whether the sitemap lists it, whether it may be indexed. */
export const pageInclusionRowSchema = z.object({
  uri: z.string(),
  statusCode: z.number().int().nullable(),
  /** Internal link occurrences pointing to it from other pages. */
  incomingLinks: z.number().int(),
  /** Up to 20 of the pages linking to it (all of them: the link tab with `target`). */
  linkedFrom: z.array(z.string()),
  inSitemap: z.boolean(),
  /** In the sitemap but linked from no crawled page. */
  orphan: z.boolean(),
  indexable: z.boolean(),
  notIndexableBecause: z.array(z.string()),
  pageRank: z.number().nullable(),
});
export type PageInclusionRow = z.infer<typeof pageInclusionRowSchema>;

/** A group of rows (groupBy): its key, rows in it and broken rows in it. */
export const reportGroupSchema = z.object({ key: z.string(), count: z.number().int() });

function reportDataSchema<Row extends z.ZodType>(row: Row) {
  return z.object({
    lists: z.array(row),
    groups: z.array(reportGroupSchema).nullable(),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    filterCategories: z.array(filterCategorySchema),
  });
}
export const linkReportSchema = reportDataSchema(linkRowSchema);
export const pageReportSchema = reportDataSchema(pageRowSchema);
export const ruleReportSchema = reportDataSchema(ruleRowSchema);
export const fileTypeReportSchema = reportDataSchema(fileTypeRowSchema);
export const duplicateAnchorReportSchema = reportDataSchema(duplicateAnchorRowSchema);
export const pageInclusionReportSchema = reportDataSchema(pageInclusionRowSchema);
export type ReportData<Row> = {
  lists: Row[];
  groups: Array<{ key: string; count: number }> | null;
  total: number;
  page: number;
  pageSize: number;
  filterCategories: FilterCategory[];
};

export const reasonCountSchema = z.object({
  failureReason: z.string(),
  numberOfReferences: z.number().int(),
});

/** GET /api/report/summary/{scanId}. */
export const reportSummarySchema = z.object({
  scanId: z.string(),
  url: z.string(),
  status: z.number().int(),
  /** Why the scan failed (scan-failures.ts), as the scan's own `logMessage`; null otherwise. */
  logMessage: z.string().nullable().optional(),
  numPages: z.number().int(),
  totalLinks: z.number().int(),
  uniqueLinks: z.number().int(),
  badLinks: z.number().int(),
  uniqueBadLinks: z.number().int(),
  brokenAnchors: z.number().int(),
  duplicateAnchors: z.number().int(),
  fattestPages: z.number().int(),
  certificateProblems: z.number().int(),
  duration: z.number().int(),
  scanSettingsJson: z.string(),
  reasons: z.array(reasonCountSchema),
  /** Pages per size bucket: under 1 MB, 1–2, 2–3, 3–4, 4–5, over 5 MB. */
  pageSizeBuckets: z.array(z.object({ label: z.string(), pages: z.number().int() })),
  contentTypeSizes: z.array(fileTypeRowSchema),
  ruleCategories: z.array(
    z.object({
      categoryID: z.number().int(),
      name: z.string(),
      passed: z.number().int(),
      failed: z.number().int(),
    }),
  ),
  /** Up to ten broken links per failure reason. */
  brokenSamples: z.array(z.object({ failureReason: z.string(), links: z.array(linkRowSchema) })),
  /** Three rule violations. */
  ruleSamples: z.array(ruleRowSchema),
  /** Phases after the crawl that reached their time limit: their results are partial (issue 34). */
  cutShort: z.array(z.enum(postCrawlPhases)).optional(),
  /** Rendering in a browser (issue 35): what it did, why it could not, or a script-built hint. */
  rendering: renderingSummarySchema.optional(),
  /**
   * Unique URLs that could not be verified (issue 35: bot protection, rate limited past our
   * patience, sign-in needed, host too slow): counted apart, never among the bad links.
   */
  unverifiedLinks: z.number().int().optional(),
  /**
   * What the owner's ignore marks took out of the figures above (issue 27 triage): broken link
   * occurrences and URLs, broken anchor links, rule findings.
   */
  ignored: z
    .object({
      badLinks: z.number().int(),
      uniqueBadLinks: z.number().int(),
      brokenAnchors: z.number().int(),
      findings: z.number().int(),
    })
    .optional(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/**
 * GET api/report/SampleSiteScanId: the scan behind the public sample report (SPEC §6), readable
 * without signing in. A server that has not queued it yet answers 404 with
 * `reportMessages.noSampleReport`, so clients simply show no sample link.
 */
export const sampleSiteScanIdSchema = z.object({ scanId: z.string().min(1).max(64) });
export type SampleSiteScanId = z.infer<typeof sampleSiteScanIdSchema>;

export const reportMessages = {
  noSampleReport: 'There is no sample report on this server yet.',
} as const;

/** Cells a spreadsheet would run as a formula start with one of these (CSV injection). */
const formulaStart = /^[=+\-@\t\r]/;

/** One CSV cell, quoted when needed and neutralised against formula injection. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: UTF-8 BOM (spreadsheets then read Chinese and accents right), CRLF lines. */
export function csvDocument(header: string[], rows: Array<Array<string | number | null>>): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * GET /api/report/pdf/{scanId} (the report's "Show as PDF"): `lang` is the report's language;
 * without it the language cookie, else Accept-Language, decides.
 */
export const reportPdfQuerySchema = z.object({ lang: accountLanguageSchema.optional() });
export type ReportPdfQuery = z.infer<typeof reportPdfQuerySchema>;
