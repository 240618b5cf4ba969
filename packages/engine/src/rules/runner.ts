import { isSiteRule, type PageRule, type SiteCollector } from './built-in-rule.js';
import { builtInRules } from './catalogue.js';
import { detached } from './chars.js';
import { ParsedPage } from './page.js';
import type {
  PageFinding,
  Report,
  RulePageInput,
  RuleRunner,
  RuleRunnerOptions,
  RuleViolation,
  SiteReport,
} from './rule-types.js';
import { compileSearchRules, type SearchRule } from './search-rules.js';
import { ScanServices } from './services.js';
import { thresholds } from './thresholds.js';

/**
 * A runner for one scan. Throws (before any page is fetched) when a custom rule cannot be used:
 * an invalid regular expression or an id taken by a built-in rule.
 */
export function createRuleRunner(options: RuleRunnerOptions): RuleRunner {
  return new RuleSelection(options);
}

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
    const reporter = new PageReporter(page, violations);
    for (const rule of this.pageRules) rule.check(page, reporter.for(rule.id));
    for (const rule of searches) rule.check(page, reporter.for(rule.id));
    for (const { collector } of this.siteCollectors) collector.add(page);
    return violations;
  }

  finishSite(): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const { id, collector } of this.siteCollectors)
      collector.finish(siteReport(id, violations));
    // The misspellings held for the site's vocabulary, less those of words that proved terms.
    this.services.finishSite(violations);
    return violations;
  }
}

/**
 * The reports of the rules on one page, one rule after the other. A page that breaks a rule
 * hundreds of times (a page in another language under the spelling rules) gets the first
 * hundred: enough to act on, and a report stays readable. One report function serves every
 * rule of the page (rules report while they check, never later): a closure per rule and page
 * was 740,000 objects on the 10,000-page bench site.
 */
class PageReporter {
  private ruleId = 0;
  private count = 0;
  private readonly report: Report = (spot, message) => {
    if (this.count++ >= thresholds.maxViolationsPerRuleAndPage) return;
    this.into.push(finding(this.ruleId, this.page.locate(spot), message));
  };

  constructor(
    private readonly page: ParsedPage,
    private readonly into: PageFinding[],
  ) {}

  /** The report function, now for this rule's findings. */
  for(ruleId: number): Report {
    this.ruleId = ruleId;
    this.count = 0;
    return this.report;
  }
}

function siteReport(ruleId: number, into: RuleViolation[]): SiteReport {
  return (at, message) => into.push({ ...finding(ruleId, at, message), url: at.url });
}

function finding(
  ruleId: number,
  at: { line: number; column: number; snippet: string },
  message: string | undefined,
): PageFinding {
  const found: PageFinding = { ruleId, line: at.line, column: at.column, snippet: at.snippet };
  // Messages quote the page; a copy keeps a stored finding from holding the whole page.
  if (message) found.message = detached(message);
  return found;
}
