import type { CrawlSettings } from '../crawl-settings.js';
import type { RuleCategoryTally, RuleViolationEvent } from '../events.js';
import { ruleCatalogue, type PageFinding, type RulePageInput } from '../rules/index.js';
import { startRuleRunner, type AsyncRuleRunner } from '../rules/rule-thread.js';
import { Backlog } from './backlog.js';

/**
 * How far the crawl may run ahead of the rules: pages handed over and not yet answered. The
 * crawl goes on while the rules work (so the worker's start-up and a slow page hold nothing
 * up), but their texts wait in memory, so the wait is bounded in pages and in characters.
 * The worker's start-up (its modules, html-validate's first validations, the dictionary) lasts
 * as long as crawling 1,000–2,000 pages: with room for only 256, the crawl sat out the rest of
 * it while a core idled (5% of the wall time of a 10,000-page scan). The characters bound the
 * memory (8 M characters, 8–16 MB); the page count only bounds the pages' small parts.
 */
export const rulesBacklogLimits = { items: 4096, size: 8 << 20 };

/**
 * The quality rules of one scan: runs the selected rules on every crawled page (in the same
 * pass, on the text already downloaded; in a worker thread, see rule-thread.ts), emits their
 * findings as they come and keeps the pass/fail tally per category.
 */
export class QualityRules {
  private readonly runner: AsyncRuleRunner;
  private readonly rules: Map<number, { name: string; categoryID: number }>;
  /** Failed page × rule pairs per category. */
  private readonly failed = new Map<number, number>();
  /** Site-level findings (duplicates) counted once per page and rule. */
  private readonly siteFailures = new Set<string>();
  /** The rules that failed on the page being counted. */
  private readonly pageFailedRules = new Set<number>();
  private checkedPages = 0;
  /** Pages the rules could not check (a rule or its worker failed). */
  private uncheckedPages = 0;
  private violations = 0;
  /** Pages handed to the rules and not answered yet, and their characters. */
  private readonly backlog = new Backlog(rulesBacklogLimits);
  /** Whether the crawl waits for the rules: their backlog filled up, or the crawl has ended. */
  private crawlWaiting = false;
  private finishing = false;
  private consumerError: Error | undefined;

  private constructor(
    private readonly selected: number[],
    spellingIgnore: string[],
    private readonly emit: (event: RuleViolationEvent) => void,
  ) {
    this.runner = startRuleRunner({ selectedRules: selected, spellingIgnore });
    this.rules = new Map(
      ruleCatalogue().map((rule) => [
        rule.linkAuditorRuleID,
        { name: rule.ruleName, categoryID: rule.categoryID },
      ]),
    );
  }

  /** Undefined when no rule is selected: nothing is collected then, not even the page text. */
  static forScan(
    settings: Pick<CrawlSettings, 'selectedRules'> & Partial<Pick<CrawlSettings, 'spellingIgnore'>>,
    emit: (event: RuleViolationEvent) => void,
  ): QualityRules | undefined {
    return settings.selectedRules.length > 0
      ? new QualityRules(settings.selectedRules, settings.spellingIgnore ?? [], emit)
      : undefined;
  }

  /**
   * Hands a page to the rules; its findings are emitted when they come. Resolves at once, or,
   * when the rules are too far behind, once they have caught up a little.
   */
  async checkPage(page: RulePageInput): Promise<void> {
    const chars = page.html?.length ?? 0;
    // Only the address waits with the findings: a closure over `page` would keep its whole
    // text alive, long enough to be moved to the old generation and collected there.
    const url = page.url;
    this.backlog.add(chars);
    void this.runner
      .checkPage(page)
      .then(
        (findings) => this.pageChecked(url, findings),
        () => this.uncheckedPages++,
      )
      // An exception of the event consumer is not the rules' fault: the scan reports it at the end.
      .catch((error: unknown) => (this.consumerError ??= asError(error)))
      .finally(() => this.pageDone(chars));
    if (this.backlog.over()) {
      this.crawlWaits(true);
      await this.backlog.room();
    }
  }

  /**
   * A page off the backlog. The crawl, once it waited, counts as waiting until the backlog is
   * down to half its bounds: else the rules' priority would flip with every page at the bound.
   */
  private pageDone(chars: number): void {
    this.backlog.done(chars);
    if (this.crawlWaiting && !this.finishing && !this.backlog.over(0.5)) this.crawlWaits(false);
  }

  private crawlWaits(waiting: boolean): void {
    if (waiting === this.crawlWaiting) return;
    this.crawlWaiting = waiting;
    this.runner.crawlWaits(waiting);
  }

  /**
   * A page's findings. When the rules failed on it, it has none and is counted as unchecked: a
   * fault of ours must never turn a working page into a broken link.
   */
  private pageChecked(url: string, findings: PageFinding[]): void {
    this.checkedPages++;
    // One set for every page, emptied each time: this runs on the crawl's thread for each page.
    const failedRules = this.pageFailedRules;
    failedRules.clear();
    for (const finding of findings) failedRules.add(finding.ruleId);
    for (const ruleId of failedRules) this.countFailure(ruleId);
    for (const finding of findings) this.emit(this.event(url, finding));
  }

  /** Waits for every page's findings, then emits the site-level ones; closes the rules. */
  async finishSite(): Promise<void> {
    this.finishing = true;
    this.crawlWaits(true); // nothing but the rules is left to wait for
    await this.backlog.empty();
    // Finishing closes the rules' worker, so it runs even when the scan fails here: a worker
    // left open would outlive the scan in a long-running server.
    const finishing = this.runner.finishSite();
    if (this.consumerError) {
      await finishing.catch(() => undefined);
      throw this.consumerError;
    }
    const violations = await finishing;
    for (const violation of violations) {
      const pair = `${violation.ruleId} ${violation.url}`;
      if (this.siteFailures.has(pair)) continue;
      this.siteFailures.add(pair);
      this.countFailure(violation.ruleId);
    }
    for (const violation of violations) this.emit(this.event(violation.url, violation));
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

  private event(url: string, violation: PageFinding): RuleViolationEvent {
    this.violations++;
    const rule = this.rules.get(violation.ruleId);
    return {
      type: 'rule',
      ruleId: violation.ruleId,
      ruleName: rule?.name ?? `Rule ${violation.ruleId}`,
      categoryID: rule?.categoryID ?? 0,
      url,
      line: violation.line,
      column: violation.column,
      snippet: violation.snippet,
      ...(violation.message ? { message: violation.message } : {}),
    };
  }
}

const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));
