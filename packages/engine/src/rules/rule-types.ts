import type { RuleCategory } from '@linkaudit/core';
import type { AnyNode } from 'domhandler';
import type { ParsedPage } from './page.js';

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

/** A rule over one parsed page. */
export interface PageRule extends RuleInfo {
  check(page: ParsedPage, report: Report): void;
}

/** Collects a few facts per page and reports once the whole site has been seen. */
export interface SiteCollector {
  add(page: ParsedPage): void;
  finish(report: SiteReport): void;
}

/** A rule over the whole site (duplicates across pages); one collector per scan. */
export interface SiteRule extends RuleInfo {
  collect(): SiteCollector;
}

export type BuiltInRule = PageRule | SiteRule;

export function isSiteRule(rule: BuiltInRule): rule is SiteRule {
  return 'collect' in rule;
}
