import {
  effectiveLinkLimit,
  effectiveMaxDepth,
  type ExcludeLinkItem,
  type ResolvedScan,
  type ScanDepth,
  type ScanRequest,
} from '@linkaudit/core';

/**
 * What one crawl needs to know, and nothing more: the limits are numbers already (no plan, no
 * "unlimited" option), and a request's login fields never reach the engine.
 */
export interface CrawlSettings {
  url: string;
  scanDepth: ScanDepth;
  /** Unique URLs the crawl may check; Infinity when nothing limits it. */
  linkLimit: number;
  /** Link levels followed from the start page (1 for a single page). */
  maxDepth: number;
  /** Unique broken URLs after which the crawl stops. */
  maxErrorCount: number;
  /** Hours. */
  timeoutAfter: number;
  /** Fetches under way at once. */
  maxThreadCount: number;
  checkBrokenCertificate: boolean;
  checkBrokenLinks: boolean;
  checkAnchors: boolean;
  checkImages: boolean;
  checkIframes: boolean;
  caseSensitive: boolean;
  checkPageRank: boolean;
  checkPageInclusion: boolean;
  respectRobotsTxt: boolean;
  selectedRules: number[];
  /** Words the spelling rules accept (the scan's ignore list). */
  spellingIgnore: string[];
  excludeLinks: Array<Pick<ExcludeLinkItem, 'link'>>;
  /** Render internal pages in a browser (issue 35); absent: off. */
  renderPages?: boolean;
}

/**
 * The crawl of a request: a resolved scan's link limit (the server's, plan applied), or for a bare
 * request (the CLI's) what it asks for, Infinity when unlimited.
 */
export function crawlSettingsFor(scan: ScanRequest | ResolvedScan): CrawlSettings {
  return {
    url: scan.url,
    scanDepth: scan.scanDepth,
    linkLimit: 'linkLimit' in scan ? scan.linkLimit : effectiveLinkLimit(scan),
    maxDepth: effectiveMaxDepth(scan),
    maxErrorCount: scan.maxErrorCount,
    timeoutAfter: scan.timeoutAfter,
    maxThreadCount: scan.maxThreadCount,
    checkBrokenCertificate: scan.checkBrokenCertificate,
    checkBrokenLinks: scan.checkBrokenLinks,
    checkAnchors: scan.checkAnchors,
    checkImages: scan.checkImages,
    checkIframes: scan.checkIframes,
    caseSensitive: scan.caseSensitive,
    checkPageRank: scan.checkPageRank,
    checkPageInclusion: scan.checkPageInclusion,
    respectRobotsTxt: scan.respectRobotsTxt,
    selectedRules: scan.selectedRules,
    spellingIgnore: scan.spellingIgnore ?? [],
    excludeLinks: scan.excludeLinks.map(({ link }) => ({ link })),
    ...(scan.renderPages ? { renderPages: true } : {}),
  };
}
