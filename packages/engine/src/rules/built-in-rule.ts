// What a built-in rule is: a check over the parsed page, or a collector over the whole site.
// Above the page model (page.ts), below the rules that implement it.
import type { ParsedPage } from './page.js';
import type { Report, RuleInfo, SiteReport } from './rule-types.js';

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
