// The rules' front door: the scan engine hands each crawled page to a runner and asks for the
// site-level findings once the crawl is over. Nothing here fetches anything.
import type { Rule } from '@linkaudit/core';
import { builtInRules, toCatalogueRule } from './catalogue.js';
import { RuleSelection } from './runner.js';

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

/**
 * A runner for one scan. Throws (before any page is fetched) when a custom rule cannot be used:
 * an invalid regular expression or an id taken by a built-in rule.
 */
export function createRuleRunner(options: RuleRunnerOptions): RuleRunner {
  return new RuleSelection(options);
}

/** Every built-in rule as the SPEC §3 Rule shape. */
export function ruleCatalogue(): Rule[] {
  return builtInRules.map(toCatalogueRule);
}
