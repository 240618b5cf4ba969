// The types the rules share with each other and with the engine: a page as the crawl hands it
// over, the findings that come back, where a finding is, and what a rule says about itself. The
// bottom of the rules package: it imports nothing from it (the page model, the rules, the
// catalogue and the runner all build on it).
import type { Rule, RuleCategory } from '@linkaudit/core';
import type { AnyNode } from 'domhandler';

export interface RulePageInput {
  url: string; // final URL of the page
  statusCode: number;
  headers: Record<string, string | string[] | undefined>; // response headers (lower-case names)
  contentType: string;
  html: string; // the whole decoded HTML source of the page
  bytes: number; // bytes downloaded (decompressed)
  compressed: boolean; // the response had a Content-Encoding
  redirects: { url: string; statusCode: number }[]; // chain that led to this page
  isStartPage: boolean;
  /** What the engine learnt about this page elsewhere in the crawl; rules work without it. */
  facts?: PageFacts;
}

/**
 * Facts from outside the page itself. Every field is optional so the engine can add facts as it
 * learns them, and a rule that reads one still works from the page alone when it is missing.
 */
export interface PageFacts {
  /** Absolute URLs (without fragment) linked from this page that answered with a redirect. */
  redirectingLinks?: ReadonlySet<string>;
  /** With rendering: the errors the page's script wrote to the console or threw, in order. */
  consoleErrors?: readonly string[];
}

export interface RuleViolation {
  ruleId: number;
  url: string;
  line: number;
  column: number;
  snippet: string;
  message?: string;
}

/** A finding on the page just checked: a violation without the page's address. */
export type PageFinding = Omit<RuleViolation, 'url'>;

export interface RuleRunner {
  checkPage(page: RulePageInput): RuleViolation[]; // synchronous, one page
  /** The same findings without the page's address, which each violation would repeat. */
  pageFindings(page: RulePageInput): PageFinding[];
  finishSite(): RuleViolation[]; // site-level rules (duplicate titles/descriptions …) after the crawl
}

export interface RuleRunnerOptions {
  /** Ids of the rules to run, built-in or custom; an empty list runs none. */
  selectedRules: number[];
  /** Words the spelling rules accept on this scan (case-insensitive). */
  spellingIgnore?: string[];
  /** Operators' data-driven rules (SPEC §3 searchString, shouldExist, fileFilter). */
  customRules?: Rule[];
}

/** A span of the page source: [start, end) character offsets. */
export interface SourceSpan {
  start: number;
  end: number;
}

/** Where a violation is: a node of the parsed page, a span, or a character offset. */
export type Spot = AnyNode | SourceSpan | number;

/** Records one violation of the rule being run. */
export type Report = (spot: Spot, message?: string) => void;

/** A violation already located on some page, kept by a site rule until the crawl ends. */
export interface SiteLocation {
  url: string;
  line: number;
  column: number;
  snippet: string;
}

export type SiteReport = (at: SiteLocation, message?: string) => void;

/** What every built-in rule says about itself (the catalogue and its explanation page). */
export interface RuleInfo {
  /** Stable: category × 1000 + n. Never reuse an id, the reports of old scans keep it. */
  id: number;
  /** Readable id, `<category>/<name>`, used in SARIF and file names. */
  slug: string;
  name: string;
  category: RuleCategory;
  /** One sentence: what the rule checks. */
  note: string;
  /** What a person should do about a violation. */
  prompt: string;
}
