import { scanFailureMessages, type PostCrawlPhase } from '@linkaudit/core';
import { SiteAnalysis } from './analysis/site-analysis.js';
import { AnchorIndex } from './checks/anchors.js';
import { CertificateInspector } from './checks/certificates.js';
import type { QualityRules } from './checks/quality-rules.js';
import type { Backpressure } from './backpressure.js';
import type { CrawlSettings } from './crawl-settings.js';
import { addressKeyOf, prepareCrawl } from './crawl/crawl-context.js';
import { Frontier } from './crawl/frontier.js';
import { allowAllRobots } from './crawl/robots.js';
import { SiteCrawl, Wakeup } from './crawl/site-crawl.js';
import { StopControl } from './crawl/stop-control.js';
import type { DoneEvent, ScanEvent } from './events.js';
import { LinkChecker } from './fetch/checker.js';
import { cachingLookup } from './fetch/dns-cache.js';
import { ScanStoppedError } from './fetch/errors.js';
import { HostPacing } from './fetch/host-pacing.js';
import { answeringCache, type ResultCache } from './crawl/result-cache.js';
import { FileSite } from './fetch/file-site.js';
import { HttpClient } from './fetch/http-client.js';
import { engineDefaults, type EngineOptions } from './options.js';
import { PhaseBudget } from './phase-budget.js';
import { ScanTally } from './scan-tally.js';
import { SuggestionPass } from './suggestions/suggestion-pass.js';
import { PageRenderer } from './render/page-renderer.js';
import { ScriptBuiltSigns } from './render/script-built.js';
import type { RenderingSummary } from '@linkaudit/core';

export interface RunScanOptions extends EngineOptions {
  /** Receives every event as it happens; it must not block (queue slow work elsewhere). */
  onEvent: (event: ScanEvent) => void;
  /** Lets onEvent's consumer, while it is behind, hold back new fetches (a slow database). */
  backpressure?: Backpressure;
}

/** Runs a scan to its end and resolves with its `done` event (never rejects for scan problems). */
export async function runScan(
  settings: CrawlSettings,
  options: RunScanOptions,
): Promise<DoneEvent> {
  return new ScanRun(settings, options).execute();
}

/** The same scan as an async iterable of events, ending with `done`. */
export async function* scan(
  settings: CrawlSettings,
  options: EngineOptions = {},
): AsyncIterable<ScanEvent> {
  const buffered: ScanEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const running = runScan(settings, {
    ...options,
    onEvent: (event) => {
      buffered.push(event);
      wake?.();
    },
  }).finally(() => {
    finished = true;
    wake?.();
  });
  while (!finished || buffered.length > 0) {
    if (buffered.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    yield* buffered.splice(0);
  }
  await running;
}

/**
 * One scan from start to `done`: the parts every scan has are made at once; the crawl's own
 * parts (ledger, page reader) once its context is prepared (start address, robots, rules).
 */
class ScanRun {
  private readonly startedAt = Date.now();
  private readonly wakeup = new Wakeup();
  private readonly stop: StopControl;
  private readonly client: HttpClient;
  private readonly checker: LinkChecker;
  private readonly frontier: Frontier;
  private readonly pacing: HostPacing;
  private readonly tally = new ScanTally();
  private readonly anchors = new AnchorIndex();
  private readonly analysis: SiteAnalysis;
  private readonly certificates: CertificateInspector | undefined;
  private readonly suggestions: SuggestionPass | undefined;
  /** Renders internal pages in a browser, when the settings ask for it. */
  private readonly renderer: PageRenderer | undefined;
  /** Otherwise, notes the pages that look built by script. */
  private readonly scriptBuilt: ScriptBuiltSigns | undefined;
  private readonly resultCache: ResultCache | undefined;
  private finished = false;
  private progressTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: CrawlSettings,
    private readonly options: RunScanOptions,
  ) {
    this.stop = new StopControl(options.signal, settings.timeoutAfter * 3_600_000, () =>
      this.wakeup.wake(),
    );
    options.backpressure?.onRoom(() => this.wakeup.wake());
    const requestTimeoutMs = options.requestTimeoutMs ?? engineDefaults.requestTimeoutMs;
    // One DNS cache per scan, under the address policy's guard (which checks every connection).
    const lookup = cachingLookup(options.lookup);
    const perHost = Math.min(
      settings.maxThreadCount,
      options.perHostConcurrency ?? engineDefaults.perHostConcurrency,
    );
    const maxRetryAfterMs = options.maxRetryAfterMs ?? engineDefaults.maxRetryAfterMs;
    this.pacing = new HostPacing({
      defaultLimit: perHost,
      patienceMs: maxRetryAfterMs,
      hostBudgetMs: options.hostTimeBudgetMs ?? engineDefaults.hostTimeBudgetMs,
      onResume: () => this.wakeup.wake(),
    });
    const files = options.localFolder ? new FileSite(options.localFolder) : undefined;
    this.client = new HttpClient({
      userAgent: options.userAgent ?? engineDefaults.userAgent,
      requestTimeoutMs,
      requestDeadlineMs: options.requestDeadlineMs ?? engineDefaults.requestDeadlineMs,
      retries: options.retries ?? engineDefaults.retries,
      retryBaseDelayMs: options.retryBaseDelayMs ?? engineDefaults.retryBaseDelayMs,
      maxRetryAfterMs,
      maxRedirects: options.maxRedirects ?? engineDefaults.maxRedirects,
      connections: settings.maxThreadCount,
      verifyCertificates: settings.checkBrokenCertificate,
      lookup,
      addressPolicy: options.addressPolicy,
      ca: options.ca,
      signal: this.stop.signal,
      pacing: this.pacing,
      files,
    });
    this.checker = new LinkChecker(this.client);
    this.frontier = new Frontier(
      (target) => (target.internal ? settings.maxThreadCount : perHost),
      this.pacing,
    );
    this.analysis = new SiteAnalysis({
      pageRank: settings.checkPageRank,
      pageInclusion: settings.checkPageInclusion,
      startUrl: settings.url,
      keyOf: addressKeyOf(settings, options.localFolder !== undefined),
    });
    const cache = options.resultCache && answeringCache(options.resultCache);
    this.resultCache = cache?.cache;
    this.suggestions = options.suggestions
      ? new SuggestionPass({
          ...(cache ? { fetchable: (url: string) => !cache.answered.has(url) } : {}),
          client: this.client,
          maxFetches: options.suggestionFetches ?? engineDefaults.suggestionFetches,
          deadlineMs: options.suggestionDeadlineMs ?? engineDefaults.suggestionDeadlineMs,
          verifiesCertificates: settings.checkBrokenCertificate,
        })
      : undefined;
    const userAgent = options.userAgent ?? engineDefaults.userAgent;
    if (settings.renderPages)
      this.renderer = new PageRenderer(this.client, userAgent, options.render);
    else this.scriptBuilt = new ScriptBuiltSigns();
    this.certificates = settings.checkBrokenCertificate
      ? new CertificateInspector(
          {
            lookup,
            addressPolicy: options.addressPolicy,
            ca: options.ca,
            timeoutMs: requestTimeoutMs,
            signal: this.stop.signal,
            fromDisk: files && ((url) => files.serves(url)),
          },
          (event) => {
            if (!event.valid || event.expiresSoon) this.analysis.certificateProblems++;
            this.emit(event);
          },
        )
      : undefined;
  }

  async execute(): Promise<DoneEvent> {
    let failure: string | undefined;
    let rules: QualityRules | undefined;
    let crawl: SiteCrawl | undefined;
    try {
      rules = await this.loadRules();
      const context = await prepareCrawl(
        this.settings,
        this.client,
        () => this.startProgress(),
        this.options.localFolder !== undefined,
      );
      if (typeof context === 'string') {
        failure = context;
      } else {
        crawl = new SiteCrawl({
          context,
          rules,
          client: this.client,
          checker: this.checker,
          frontier: this.frontier,
          stop: this.stop,
          wakeup: this.wakeup,
          tally: this.tally,
          anchors: this.anchors,
          analysis: this.analysis,
          certificates: this.certificates,
          maxPageBytes: this.options.maxPageBytes ?? engineDefaults.maxPageBytes,
          maxLinksPerPage: this.options.maxLinksPerPage ?? engineDefaults.maxLinksPerPage,
          okLinkEvents: (this.options.linkEvents ?? engineDefaults.linkEvents) === 'all',
          resume: this.options.resume,
          resultCache: this.resultCache,
          pages: this.options.localFolder?.pages ?? [],
          checkpointPages: this.options.checkpointPages ?? false,
          emit: (event) => this.emit(event),
          heldBack: () => this.options.backpressure?.isFull() ?? false,
          renderer: this.renderer,
          scriptBuilt: this.scriptBuilt,
        });
        failure = await crawl.run();
      }
    } catch (error) {
      if (!(error instanceof ScanStoppedError))
        failure = scanFailureMessages.engineError((error as Error).message);
    }
    const analysis = await this.finish(crawl, rules);
    return this.done(failure, crawl, analysis, rules);
  }

  /**
   * The rules' code (every rule, a spell checker and its dictionary: ~70 modules) is loaded only
   * by scans that select rules, so the others start sooner.
   */
  private async loadRules(): Promise<QualityRules | undefined> {
    if (this.settings.selectedRules.length === 0) return undefined;
    const { QualityRules } = await import('./checks/quality-rules.js');
    return QualityRules.forScan(this.settings, (event) => this.emit(event));
  }

  /**
   * Stops the crawl (what was still waiting or under way is reported as not checked), then the
   * work after it, each phase within its budget: site-wide rules and suggested fixes (status 9),
   * the site analysis (status 11).
   */
  private async finish(
    crawl: SiteCrawl | undefined,
    rules: QualityRules | undefined,
  ): Promise<ReturnType<SiteAnalysis['finish']>> {
    await crawl?.settle();
    await this.renderer?.close();
    this.frontier.drain();
    crawl?.ledger.close();
    await this.certificates?.settled();
    this.emit({ type: 'phase', phase: 'rule-checking' });
    await rules?.finishSite();
    // Pages are read again only while the scan may still fetch (not once cancelled or timed
    // out), and never by a resumed run: it promised to read no page its first run had read.
    const mayFetch = !this.stop.signal.aborted && !this.options.resume;
    if (this.suggestions) {
      const budget = this.budgetFor('suggestions');
      await this.suggestions.finish(
        crawl?.ledger.targets ?? [],
        mayFetch,
        (event) => this.emit(event),
        budget,
      );
    }
    this.emit({ type: 'phase', phase: 'finalizing' });
    const analysis = this.analysis.finish(
      crawl?.ledger.targets ?? [],
      crawl?.siteFiles ?? { sitemap: undefined, robots: allowAllRobots },
      (event) => this.emit(event),
      (phase) => this.budgetFor(phase),
    );
    const summary = await analysis;
    this.finished = true;
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.stop.dispose();
    this.pacing.close();
    await this.client.close().catch(() => undefined);
    return summary;
  }

  /**
   * One phase's time and the scan's cancel (the caller's signal: a time limit reached during the
   * crawl does not skip the analysis of what was crawled). A phase cut short is remembered.
   */
  private budgetFor(phase: PostCrawlPhase): PhaseBudget {
    const budget = new PhaseBudget(phase, {
      timeMs: this.options.phaseTimeMs ?? engineDefaults.phaseTimeMs,
      cancel: this.options.signal,
      backpressure: this.options.backpressure,
    });
    this.budgets.push(budget);
    return budget;
  }

  private readonly budgets: PhaseBudget[] = [];

  private done(
    failure: string | undefined,
    crawl: SiteCrawl | undefined,
    analysis: Awaited<ReturnType<SiteAnalysis['finish']>>,
    rules: QualityRules | undefined,
  ): DoneEvent {
    const cutShort = this.budgets.filter((budget) => budget.cutShort).map((budget) => budget.phase);
    this.emitProgress();
    const cause =
      this.stop.stopCause ??
      (failure ? 'error' : crawl?.ledger.limitReached ? 'link-limit' : undefined);
    const event: DoneEvent = {
      type: 'done',
      ...(cause ? { stoppedBy: cause } : {}),
      ...(failure ? { error: failure } : {}),
      summary: {
        ...this.tally.summary(this.settings.url, Date.now() - this.startedAt),
        ...analysis,
        ...(rules ? { rules: rules.tally() } : {}),
        ...(cutShort.length > 0 ? { cutShort } : {}),
        ...this.renderingSummary(),
      },
    };
    this.options.onEvent(event);
    return event;
  }

  /** What rendering did (or why it could not), or the pages that look built by script. */
  private renderingSummary(): { rendering?: RenderingSummary } {
    const renderer = this.renderer;
    if (renderer) {
      const unavailable = renderer.unavailable;
      return {
        rendering: {
          requested: true,
          renderedPages: renderer.rendered,
          failedPages: renderer.failed,
          ...(unavailable ? { unavailable } : {}),
          ...(renderer.browserRestarts > 0 ? { browserRestarts: renderer.browserRestarts } : {}),
        },
      };
    }
    const signs = this.scriptBuilt;
    if (!signs?.example) return {};
    return {
      rendering: {
        requested: false,
        scriptBuiltPages: signs.pages,
        scriptBuiltExample: signs.example,
      },
    };
  }

  private startProgress(): void {
    const interval = this.options.progressIntervalMs ?? engineDefaults.progressIntervalMs;
    this.progressTimer = setInterval(() => this.emitProgress(), interval);
    this.progressTimer.unref();
  }

  private emitProgress(): void {
    this.options.onEvent({
      type: 'progress',
      queued: this.frontier.size,
      processed: this.tally.settled,
      pages: this.tally.pages,
      links: this.tally.totalLinks,
      broken: this.tally.uniqueBroken,
      elapsedMs: Date.now() - this.startedAt,
    });
  }

  private emit(event: ScanEvent): void {
    if (this.finished) return;
    this.suggestions?.observe(event);
    this.options.onEvent(event);
  }
}
