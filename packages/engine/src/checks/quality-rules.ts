import type { ScanSettings } from '@linkaudit/core';
import type { RuleCategoryTally, RuleViolationEvent } from '../events.js';
import { ruleCatalogue, type RulePageInput, type RuleViolation } from '../rules/index.js';
import { startRuleRunner, type AsyncRuleRunner } from '../rules/rule-thread.js';

/**
 * The quality rules of one scan: runs the selected rules on every crawled page (in the same
 * pass, on the text already downloaded; in a worker thread, see rule-thread.ts) and keeps the
 * pass/fail tally per category.
 */
export class QualityRules {
  private readonly runner: AsyncRuleRunner;
  private readonly rules: Map<number, { name: string; categoryID: number }>;
  /** Failed page × rule pairs per category. */
  private readonly failed = new Map<number, number>();
  /** Site-level findings (duplicates) counted once per page and rule. */
  private readonly siteFailures = new Set<string>();
  private checkedPages = 0;
  /** Pages the rules could not check (a rule or its worker failed). */
  private uncheckedPages = 0;
  private violations = 0;

  private constructor(private readonly selected: number[]) {
    this.runner = startRuleRunner({ selectedRules: selected });
    this.rules = new Map(
      ruleCatalogue().map((rule) => [
        rule.linkAuditorRuleID,
        { name: rule.ruleName, categoryID: rule.categoryID },
      ]),
    );
  }

  /** Undefined when no rule is selected: nothing is collected then, not even the page text. */
  static forScan(settings: ScanSettings): QualityRules | undefined {
    return settings.selectedRules.length > 0 ? new QualityRules(settings.selectedRules) : undefined;
  }

  /**
   * The page's findings. When the rules fail on it, it has none and is counted as unchecked: a
   * fault of ours must never turn a working page into a broken link.
   */
  async checkPage(page: RulePageInput): Promise<RuleViolationEvent[]> {
    let violations: RuleViolation[];
    try {
      violations = await this.runner.checkPage(page);
    } catch {
      this.uncheckedPages++;
      return [];
    }
    this.checkedPages++;
    for (const ruleId of new Set(violations.map((violation) => violation.ruleId)))
      this.countFailure(ruleId);
    return violations.map((violation) => this.event(violation));
  }

  /** Site-level findings, once every page's are in; the rules are closed afterwards. */
  async finishSite(): Promise<RuleViolationEvent[]> {
    const violations = await this.runner.finishSite();
    for (const violation of violations) {
      const pair = `${violation.ruleId} ${violation.url}`;
      if (this.siteFailures.has(pair)) continue;
      this.siteFailures.add(pair);
      this.countFailure(violation.ruleId);
    }
    return violations.map((violation) => this.event(violation));
  }

  private countFailure(ruleId: number): void {
    const categoryID = this.rules.get(ruleId)?.categoryID;
    if (categoryID !== undefined)
      this.failed.set(categoryID, (this.failed.get(categoryID) ?? 0) + 1);
  }

  tally(): {
    checkedPages: number;
    uncheckedPages?: number;
    violations: number;
    categories: RuleCategoryTally[];
  } {
    const categories = new Map<number, RuleCategoryTally>();
    for (const id of new Set(this.selected)) {
      const rule = this.rules.get(id);
      if (!rule) continue;
      const entry = categories.get(rule.categoryID) ?? {
        categoryID: rule.categoryID,
        passed: 0,
        failed: 0,
      };
      entry.passed += this.checkedPages;
      categories.set(rule.categoryID, entry);
    }
    for (const [categoryID, failed] of this.failed) {
      const entry = categories.get(categoryID);
      if (!entry) continue;
      entry.passed -= failed;
      entry.failed += failed;
    }
    return {
      checkedPages: this.checkedPages,
      ...(this.uncheckedPages > 0 && { uncheckedPages: this.uncheckedPages }),
      violations: this.violations,
      categories: [...categories.values()].sort((a, b) => a.categoryID - b.categoryID),
    };
  }

  private event(violation: RuleViolation): RuleViolationEvent {
    this.violations++;
    const rule = this.rules.get(violation.ruleId);
    return {
      type: 'rule',
      ruleId: violation.ruleId,
      ruleName: rule?.name ?? `Rule ${violation.ruleId}`,
      categoryID: rule?.categoryID ?? 0,
      url: violation.url,
      line: violation.line,
      column: violation.column,
      snippet: violation.snippet,
      ...(violation.message ? { message: violation.message } : {}),
    };
  }
}
