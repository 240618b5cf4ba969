import { builtInRules } from './catalogue.js';
import { detached } from './chars.js';
import type {
  PageFinding,
  RulePageInput,
  RuleRunner,
  RuleRunnerOptions,
  RuleViolation,
} from './index.js';
import { ParsedPage } from './page.js';
import {
  isSiteRule,
  type PageRule,
  type Report,
  type SiteCollector,
  type SiteReport,
} from './rule-types.js';
import { compileSearchRules, type SearchRule } from './search-rules.js';
import { ScanServices } from './services.js';
import { thresholds } from './thresholds.js';

/** The rules selected for one scan and the state they keep between pages. */
export class RuleSelection implements RuleRunner {
  private readonly pageRules: readonly PageRule[];
  private readonly siteCollectors: readonly { id: number; collector: SiteCollector }[];
  private readonly searchRules: readonly SearchRule[];
  private readonly services: ScanServices;

  constructor(options: RuleRunnerOptions) {
    const selected = new Set(options.selectedRules);
    const rules = builtInRules.filter((rule) => selected.has(rule.id));
    this.pageRules = rules.filter((rule): rule is PageRule => !isSiteRule(rule));
    this.siteCollectors = rules
      .filter(isSiteRule)
      .map((rule) => ({ id: rule.id, collector: rule.collect() }));
    this.searchRules = compileSearchRules(options.customRules ?? [], selected);
    this.services = new ScanServices(options.spellingIgnore);
  }

  checkPage(input: RulePageInput): RuleViolation[] {
    return this.pageFindings(input).map((finding) => ({ ...finding, url: input.url }));
  }

  pageFindings(input: RulePageInput): PageFinding[] {
    const violations: PageFinding[] = [];
    const searches = this.searchRules.filter((rule) => rule.appliesTo(input));
    if (this.pageRules.length + this.siteCollectors.length + searches.length === 0) {
      return violations; // nothing selected: not even a parse
    }
    const page = new ParsedPage(input, this.services);
    for (const rule of this.pageRules) rule.check(page, pageReport(page, rule.id, violations));
    for (const rule of searches) rule.check(page, pageReport(page, rule.id, violations));
    for (const { collector } of this.siteCollectors) collector.add(page);
    return violations;
  }

  finishSite(): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const { id, collector } of this.siteCollectors)
      collector.finish(siteReport(id, violations));
    return violations;
  }
}

/**
 * Reports of one rule on one page. A page that breaks a rule hundreds of times (a page in
 * another language under the spelling rules) gets the first hundred: enough to act on, and a
 * report stays readable.
 */
function pageReport(page: ParsedPage, ruleId: number, into: PageFinding[]): Report {
  let count = 0;
  return (spot, message) => {
    if (count++ >= thresholds.maxViolationsPerRuleAndPage) return;
    into.push(finding(ruleId, page.locate(spot), message));
  };
}

function siteReport(ruleId: number, into: RuleViolation[]): SiteReport {
  return (at, message) => into.push({ ...finding(ruleId, at, message), url: at.url });
}

function finding(
  ruleId: number,
  at: { line: number; column: number; snippet: string },
  message: string | undefined,
): PageFinding {
  const { line, column, snippet } = at;
  // Messages quote the page; a copy keeps a stored finding from holding the whole page.
  return { ruleId, line, column, snippet, ...(message ? { message: detached(message) } : {}) };
}
