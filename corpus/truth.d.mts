// Types of truth.mjs for the TypeScript tests.
import type { SiteFiles } from './static-site.mjs';

export interface TruthOutcome {
  url: string;
  state: 'ok' | 'broken' | 'skipped';
  /** Final status (ok), failure reason (broken), skip cause (skipped). */
  detail: string | number;
  referenceCount: number;
}

export interface TruthBroken {
  url: string;
  reason: string;
  statusCode?: number;
  referenceCount: number;
}

export interface TruthMissingFragment {
  source: string;
  url: string;
  /** As the URL parser wrote it, with its '#'. */
  fragment: string;
  referenceCount: number;
}

export interface Truth {
  startUrl: string;
  /** Final addresses of the pages a crawler reads, sorted. */
  pages: string[];
  outcomes: TruthOutcome[];
  broken: TruthBroken[];
  missingFragments: TruthMissingFragment[];
  totalLinks: number;
  brokenLinks: number;
  brokenFragments: number;
}

export declare function reasonForStatus(status: number): string;

export declare function deriveTruth(
  files: SiteFiles,
  options: { origin: string; start: string; folderScope?: boolean; maxDepth?: number },
): Truth;
