import type { FailureReason } from './failure-reasons.js';
import { ScanStatus } from './status.js';

// The scan summary crosses the worker → database → HTTP boundary (summary_json), so core owns its
// shape; the engine fills it in.

/** Per rule category: page/rule pairs that passed and that failed. */
export interface RuleCategoryTally {
  categoryID: number;
  passed: number;
  failed: number;
}

/** Per content type over every unique URL fetched. */
export interface FileTypeTotal {
  contentType: string;
  count: number;
  totalSize: number;
}

/** What stopped a scan before it had checked everything (none: it completed). */
export type StopCause = 'link-limit' | 'error-limit' | 'timeout' | 'cancelled' | 'error';

/**
 * The work after the crawl, in order (issue 34). Each phase has a time limit: one that reached it
 * stopped with what it had, and the summary's `cutShort` names it, so the report can say so.
 */
export const postCrawlPhases = [
  'suggestions',
  'page-sizes',
  'page-rank',
  'page-inclusion',
] as const;
export type PostCrawlPhase = (typeof postCrawlPhases)[number];

/** How a scan ended, as the engine says it: what stopped it, and why it failed when it did. */
export interface ScanEnding {
  stoppedBy?: StopCause | undefined;
  error?: string | undefined;
}

/**
 * SPEC's status code of a scan that ended (the server stores it, the CLI prints it): Failed with
 * an error, Cancelled, Timeout, OverMaxLinks for either limit, else Complete.
 */
export function endingStatus({ stoppedBy, error }: ScanEnding): ScanStatus {
  if (error !== undefined || stoppedBy === 'error') return ScanStatus.Failed;
  switch (stoppedBy) {
    case 'cancelled':
      return ScanStatus.Cancelled;
    case 'timeout':
      return ScanStatus.Timeout;
    case 'link-limit':
    case 'error-limit':
      return ScanStatus.OverMaxLinks;
    default:
      return ScanStatus.Complete;
  }
}

export interface ScanSummary {
  startUrl: string;
  pages: number;
  /** Unique URLs checked (fetched). */
  uniqueLinks: number;
  /** Link occurrences found on all pages. */
  totalLinks: number;
  /** Link occurrences whose target is broken. */
  brokenLinks: number;
  uniqueBrokenLinks: number;
  uniqueUnverifiedLinks: number;
  /** Unique broken URLs per failure reason. */
  reasons: Partial<Record<FailureReason, number>>;
  durationMs: number;
  /** Link occurrences whose #fragment is missing on its page (checkAnchors). */
  brokenAnchors: number;
  duplicateAnchors: number;
  /** Pages over 2 MB (HTML plus resources). */
  fattestPages: number;
  /** Pages per size bucket: under 1 MB, 1–2, 2–3, 3–4, 4–5, over 5 MB (1 MB = 1,048,576 bytes). */
  pageSizeBuckets: number[];
  fileTypes: FileTypeTotal[];
  /** Hosts whose certificate is invalid or expires within 30 days. */
  certificateProblems: number;
  sitemap?: SitemapSummary;
  /** With selected rules: pages checked, violations, and pass/fail per category. */
  rules?: {
    checkedPages: number;
    /** Pages the rules could not check (a rule or its worker failed); absent when none. */
    uncheckedPages?: number;
    violations: number;
    categories: RuleCategoryTally[];
  };
  /** Phases after the crawl that reached their time limit and stopped with what they had. */
  cutShort?: PostCrawlPhase[];
  /** Rendering in a browser (issue 35): what it did, or why it could not (see RenderingSummary). */
  rendering?: RenderingSummary;
}

/**
 * Rendering pages in a browser (issue 35). With the option on: pages rendered and not, or why
 * none were (`unavailable`: no Chromium, or it would not start). With it off: the pages whose
 * HTML looks built by script (`scriptBuiltPages`, one of them in `scriptBuiltExample`), so the
 * report can suggest the option.
 */
export interface RenderingSummary {
  requested: boolean;
  renderedPages?: number;
  /** Pages the browser could not render in time (read from their HTML only). */
  failedPages?: number;
  unavailable?: string;
  /** Times the browser was replaced (it crashed, hung, passed its memory cap or page count). */
  browserRestarts?: number;
  scriptBuiltPages?: number;
  scriptBuiltExample?: string;
}

/** What the site's sitemaps say, with checkPageInclusion. */
export interface SitemapSummary {
  sitemaps: string[];
  urls: number;
  orphans: number;
  broken: number;
  redirected: number;
  notIndexable: number;
  /** Indexable crawled pages the sitemap does not list. */
  missingFromSitemap: number;
}

/** The summary of a scan that found nothing (it failed before its start page, say). */
export function emptyScanSummary(startUrl: string): ScanSummary {
  return {
    startUrl,
    pages: 0,
    uniqueLinks: 0,
    totalLinks: 0,
    brokenLinks: 0,
    uniqueBrokenLinks: 0,
    uniqueUnverifiedLinks: 0,
    reasons: {},
    durationMs: 0,
    ...emptySiteAnalysis(),
  };
}

/** The site analysis's part of the summary before (or without) an analysis. */
export function emptySiteAnalysis(): Pick<
  ScanSummary,
  | 'brokenAnchors'
  | 'duplicateAnchors'
  | 'fattestPages'
  | 'pageSizeBuckets'
  | 'fileTypes'
  | 'certificateProblems'
> {
  return {
    brokenAnchors: 0,
    duplicateAnchors: 0,
    fattestPages: 0,
    pageSizeBuckets: [0, 0, 0, 0, 0, 0],
    fileTypes: [],
    certificateProblems: 0,
  };
}
