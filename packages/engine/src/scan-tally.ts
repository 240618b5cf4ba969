import type { FailureReason } from '@linkaudit/core';
import type { LinkCheck, ScanSummary } from './events.js';

export type SiteAnalysisSummary = Pick<
  ScanSummary,
  | 'brokenAnchors'
  | 'duplicateAnchors'
  | 'fattestPages'
  | 'pageSizeBuckets'
  | 'fileTypes'
  | 'certificateProblems'
  | 'sitemap'
>;

/** Running counts of a scan, for progress events and the final summary. */
export class ScanTally {
  pages = 0;
  settled = 0;
  fetched = 0;
  totalLinks = 0;
  brokenLinks = 0;
  uniqueBroken = 0;
  uniqueUnverified = 0;
  private readonly reasons: Partial<Record<FailureReason, number>> = {};
  /** Broken links with no URL to fetch, by reason and text: each counts once, as a URL does. */
  private readonly brokenTexts = new Set<string>();

  /** A unique URL got its outcome. */
  settle(check: LinkCheck): void {
    this.settled++;
    if (check.state === 'broken') {
      this.uniqueBroken++;
      this.reasons[check.reason] = (this.reasons[check.reason] ?? 0) + 1;
    } else if (check.state === 'unverified') {
      this.uniqueUnverified++;
    }
    if (check.state !== 'skipped') this.fetched++;
  }

  /**
   * A broken link with no URL to fetch (missing attribute, invalid URL): the first occurrence of
   * its text (`target`, '' for a missing attribute) counts as one unique broken link, as the
   * first check of a URL does; the others only as occurrences.
   */
  brokenWithoutUrl(check: LinkCheck, target: string): void {
    if (check.state !== 'broken') return;
    const key = `${check.reason}\n${target}`;
    if (this.brokenTexts.has(key)) return;
    this.brokenTexts.add(key);
    this.uniqueBroken++;
    this.reasons[check.reason] = (this.reasons[check.reason] ?? 0) + 1;
  }

  /** A link occurrence was reported. */
  occurrence(check: LinkCheck): void {
    this.totalLinks++;
    if (check.state === 'broken') this.brokenLinks++;
  }

  /** The counts part of the summary; the site analysis adds sizes, file types and the rest. */
  summary(startUrl: string, durationMs: number): Omit<ScanSummary, keyof SiteAnalysisSummary> {
    return {
      startUrl,
      pages: this.pages,
      uniqueLinks: this.fetched,
      totalLinks: this.totalLinks,
      brokenLinks: this.brokenLinks,
      uniqueBrokenLinks: this.uniqueBroken,
      uniqueUnverifiedLinks: this.uniqueUnverified,
      reasons: { ...this.reasons },
      durationMs,
    };
  }
}
