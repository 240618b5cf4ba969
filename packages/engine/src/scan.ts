import {
  ScanStatus,
  effectiveLinkLimit,
  effectiveMaxDepth,
  scanSettingsSchema,
  type ScanSettings,
  type ScanSettingsInput,
} from '@linkaudit/core';
import { SiteAnalysis } from './analysis/site-analysis.js';
import { readSitemaps, type SitemapContents } from './analysis/sitemaps.js';
import { AnchorIndex } from './checks/anchors.js';
import { CertificateInspector } from './checks/certificates.js';
import type { QualityRules } from './checks/quality-rules.js';
import { compileExclusions, exclusionProblems } from './crawl/exclusions.js';
import { Frontier } from './crawl/frontier.js';
import { engineExceptionCheck } from './crawl/immediate-checks.js';
import { LinkLedger } from './crawl/link-ledger.js';
import { PageReader } from './crawl/page-reader.js';
import { loadRobots, type RobotsRules } from './crawl/robots.js';
import { SiteScope } from './crawl/site-scope.js';
import { StopControl } from './crawl/stop-control.js';
import type { Target } from './crawl/targets.js';
import type { DoneEvent, LinkCheck, ScanEvent } from './events.js';
import { LinkChecker } from './fetch/checker.js';
import { cachingLookup } from './fetch/dns-cache.js';
import { ScanStoppedError } from './fetch/errors.js';
import { HttpClient } from './fetch/http-client.js';
import type { RetryPause } from './fetch/retry-policy.js';
import { engineDefaults, type EngineOptions } from './options.js';
import { ScanTally } from './scan-tally.js';

export interface RunScanOptions extends EngineOptions {
  /** Receives every event as it happens; it must not block (queue slow work elsewhere). */
  onEvent: (event: ScanEvent) => void;
}

/** Runs a scan to its end and resolves with its `done` event (never rejects for scan problems). */
export async function runScan(
  input: ScanSettingsInput,
  options: RunScanOptions,
): Promise<DoneEvent> {
  const settings = scanSettingsSchema.parse(input);
  return new ScanRun(settings, options).execute();
}

/** The same scan as an async iterable of events, ending with `done`. */
export async function* scan(
  settings: ScanSettingsInput,
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

/** The longest we wait for requests under way once a scan has been told to stop. */
const stopGraceMs = 800;

/** One scan from start to `done`: the start page, then everything it leads to, then the analysis. */
class ScanRun {
  private readonly startedAt = Date.now();
  private readonly stop: StopControl;
  private readonly client: HttpClient;
  private readonly checker: LinkChecker;
  private readonly frontier: Frontier;
  private readonly tally = new ScanTally();
  private readonly anchors = new AnchorIndex();
  private readonly analysis: SiteAnalysis;
  private readonly certificates: CertificateInspector | undefined;
  private readonly ledger: LinkLedger;
  /** Made by crawl(), once the rules are loaded. */
  private reader!: PageReader;
  private rules: QualityRules | undefined;
  private robots: RobotsRules = { isAllowed: () => true, sitemaps: [] };
  private sitemap: SitemapContents | undefined;
  private active = 0;
  /** Of the active fetches, those waiting to retry: they hold no thread meanwhile. */
  private resting = 0;
  private finished = false;
  private wake: (() => void) | undefined;
  private progressTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: ScanSettings,
    private readonly options: RunScanOptions,
  ) {
    this.stop = new StopControl(options.signal, settings.timeoutAfter * 3_600_000, () =>
      this.wake?.(),
    );
    const requestTimeoutMs = options.requestTimeoutMs ?? engineDefaults.requestTimeoutMs;
    // One DNS cache per scan, under the address policy's guard (which checks every connection).
    const lookup = cachingLookup(options.lookup);
    this.client = new HttpClient({
      userAgent: options.userAgent ?? engineDefaults.userAgent,
      requestTimeoutMs,
      retries: options.retries ?? engineDefaults.retries,
      retryBaseDelayMs: options.retryBaseDelayMs ?? engineDefaults.retryBaseDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? engineDefaults.maxRetryAfterMs,
      maxRedirects: options.maxRedirects ?? engineDefaults.maxRedirects,
      connections: settings.maxThreadCount,
      verifyCertificates: settings.checkBrokenCertificate,
      lookup,
      addressPolicy: options.addressPolicy,
      ca: options.ca,
      signal: this.stop.signal,
    });
    this.checker = new LinkChecker(this.client);
    const perHost = Math.min(
      settings.maxThreadCount,
      options.perHostConcurrency ?? engineDefaults.perHostConcurrency,
    );
    this.frontier = new Frontier((target) => (target.internal ? settings.maxThreadCount : perHost));
    this.analysis = new SiteAnalysis({
      pageRank: settings.checkPageRank,
      pageInclusion: settings.checkPageInclusion,
      startUrl: settings.url,
      keyOf: (url) => this.ledger.keyOf(url),
      isAllowedByRobots: (url) => this.robots.isAllowed(url),
    });
    this.certificates = settings.checkBrokenCertificate
      ? new CertificateInspector(
          {
            lookup,
            addressPolicy: options.addressPolicy,
            ca: options.ca,
            timeoutMs: requestTimeoutMs,
            signal: this.stop.signal,
          },
          (event) => {
            if (!event.valid || event.expiresSoon) this.analysis.certificateProblems++;
            this.emit(event);
          },
        )
      : undefined;
    this.ledger = new LinkLedger({
      settings,
      frontier: this.frontier,
      stop: this.stop,
      tally: this.tally,
      analysis: this.analysis,
      anchors: this.anchors,
      certificates: this.certificates,
      linkLimit: effectiveLinkLimit(settings),
      okLinkEvents: (options.linkEvents ?? engineDefaults.linkEvents) === 'all',
      emit: (event) => this.emit(event),
    });
  }

  async execute(): Promise<DoneEvent> {
    let failure: string | undefined;
    try {
      failure = await this.crawl();
    } catch (error) {
      if (!(error instanceof ScanStoppedError))
        failure = `Engine error: ${(error as Error).message}`;
    }
    await this.finish();
    return this.done(failure);
  }

  /** The table of contents: the start page first (it decides the scope), then everything it leads to. */
  private async crawl(): Promise<string | undefined> {
    await this.startReader();
    const startUrl = this.startUrl();
    if (typeof startUrl === 'string') return startUrl;
    this.startProgress();
    if (this.settings.respectRobotsTxt || this.settings.checkPageInclusion) {
      this.robots = await loadRobots(this.client, startUrl.origin);
    }
    const scope = new SiteScope(startUrl, this.settings.scanDepth, this.settings.caseSensitive);
    this.ledger.context = {
      settings: this.settings,
      scope,
      exclusions: compileExclusions(this.settings.excludeLinks, this.settings.caseSensitive),
      robots: this.robots,
      maxDepth: effectiveMaxDepth(this.settings),
    };
    // The start page is fetched alone, before anything else: its final address decides the scope.
    const start = this.ledger.register(
      startUrl.href,
      1,
      { crawl: true, readAnchors: false, resource: false },
      false,
    );
    const startCheck = await this.process(start, (finalUrl) =>
      scope.useStartPage(new URL(finalUrl)),
    );
    if (startCheck?.state !== 'ok')
      return `The start page could not be fetched: ${describe(startCheck)}`;
    if (this.settings.checkPageInclusion) await this.addSitemapEntries(startUrl);
    await this.drain();
    return undefined;
  }

  /**
   * The rules' code (every rule, a spell checker and its dictionary: ~70 modules) is loaded only
   * by scans that select rules, so the others start sooner.
   */
  private async startReader(): Promise<void> {
    if (this.settings.selectedRules.length > 0) {
      const { QualityRules } = await import('./checks/quality-rules.js');
      this.rules = QualityRules.forScan(this.settings, (event) => this.emit(event));
    }
    this.reader = new PageReader({
      settings: this.settings,
      rules: this.rules,
      ledger: this.ledger,
      anchors: this.anchors,
      analysis: this.analysis,
      tally: this.tally,
      stop: this.stop,
      maxPageBytes: this.options.maxPageBytes ?? engineDefaults.maxPageBytes,
      emit: (event) => this.emit(event),
    });
  }

  private startUrl(): URL | string {
    const problems = exclusionProblems(this.settings.excludeLinks);
    if (problems.length > 0) return problems.join('; ');
    try {
      const url = new URL(this.settings.url);
      if (url.protocol === 'http:' || url.protocol === 'https:') {
        url.hash = '';
        return url;
      }
    } catch {
      // reported below
    }
    return `Not a valid http(s) address to scan: "${this.settings.url}"`;
  }

  /** Sitemap entries join the crawl, so orphans and broken entries are found too. */
  private async addSitemapEntries(startUrl: URL): Promise<void> {
    this.sitemap = await readSitemaps(this.client, startUrl.origin, this.robots.sitemaps);
    const maxDepth = effectiveMaxDepth(this.settings);
    for (const url of this.sitemap.urls) {
      if (this.ledger.find(url) || this.ledger.fetchable >= effectiveLinkLimit(this.settings))
        continue;
      const crawl = this.ledger.context.scope.isCrawlable(new URL(url));
      this.ledger.register(url, maxDepth, { crawl, readAnchors: false, resource: false });
    }
  }

  /** Keeps up to maxThreadCount fetches under way until the frontier is empty or the scan stops. */
  private async drain(): Promise<void> {
    while (!this.stop.stopped) {
      let target: Target | undefined;
      while (
        this.active - this.resting < this.settings.maxThreadCount &&
        (target = this.frontier.take())
      )
        this.launch(target);
      if (this.active === 0 && this.frontier.size === 0) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private launch(target: Target): void {
    this.active++;
    this.process(target, undefined, this.pauseFor(target))
      .catch((error: unknown) => {
        if (!(error instanceof ScanStoppedError))
          this.ledger.settle(target, engineExceptionCheck(error));
      })
      .finally(() => {
        this.active--;
        this.frontier.release(target);
        this.wake?.();
      });
  }

  /**
   * Fetches one target: pages are parsed (links, or anchors only), other targets checked.
   * `pause` frees a launched target's thread while it waits to retry.
   */
  private async process(
    target: Target,
    onPageUrl?: (finalUrl: string) => void,
    pause?: RetryPause,
  ): Promise<LinkCheck | undefined> {
    if (target.reread) return this.reread(target, pause);
    if (target.state !== 'queued') return target.check; // claimed as a redirect's final address
    target.state = 'active';
    if (!target.crawl && !target.readAnchors) {
      const check = await this.checker.check(target.url, { measure: target.resource, pause });
      this.ledger.settle(target, check);
      return check;
    }
    const fetched = await this.checker.fetchPage(target.url, pause);
    let finalAddress: Target | undefined;
    if (fetched.html) {
      onPageUrl?.(fetched.html.finalUrl);
      finalAddress = await this.reader.read(target, fetched);
    }
    this.ledger.settle(target, fetched.check);
    if (finalAddress && fetched.check.state === 'ok')
      this.ledger.settle(finalAddress, { ...fetched.check, redirects: [] });
    return fetched.check;
  }

  /** A target checked first and linked for a visitor later: fetched again and read as a page. */
  private async reread(target: Target, pause?: RetryPause): Promise<LinkCheck | undefined> {
    try {
      // (Read as a page meanwhile, or its address is read through another target.)
      if (target.pageId === undefined && target.sameAs === undefined) {
        const fetched = await this.checker.fetchPage(target.url, pause);
        if (fetched.html) await this.reader.read(target, fetched);
      }
    } finally {
      this.ledger.finishReread(target);
    }
    return target.check;
  }

  /**
   * A target waiting to retry gives its thread and its host slot to the rest of the crawl, and
   * goes on at once when the wait is over (a host may then briefly see one request more than
   * its cap per waking retry).
   */
  private pauseFor(target: Target): RetryPause {
    return {
      begin: () => {
        this.resting++;
        this.frontier.release(target);
        this.wake?.();
      },
      end: () => {
        this.resting--;
        this.frontier.reclaim(target);
      },
    };
  }

  /** Stops the crawl: what was still waiting or under way is reported as not checked. */
  private async finish(): Promise<void> {
    await this.waitForActive();
    this.frontier.drain();
    this.ledger.close();
    await this.certificates?.settled();
    await this.rules?.finishSite();
    const analysis = this.analysis.finish(this.ledger.targets, this.sitemap, (event) =>
      this.emit(event),
    );
    this.analysisSummary = analysis;
    this.finished = true;
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.stop.dispose();
    await this.client.close().catch(() => undefined);
  }
  private analysisSummary: ReturnType<SiteAnalysis['finish']> | undefined;

  private async waitForActive(): Promise<void> {
    const deadline = Date.now() + (this.stop.stopped ? stopGraceMs : Number.POSITIVE_INFINITY);
    while (this.active > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private done(failure: string | undefined): DoneEvent {
    this.emitProgress();
    const cause =
      this.stop.stopCause ??
      (failure ? 'error' : this.ledger.limitReached ? 'link-limit' : undefined);
    const event: DoneEvent = {
      type: 'done',
      status: failure ? ScanStatus.Failed : statusFor(cause),
      ...(cause ? { stoppedBy: cause } : {}),
      ...(failure ? { error: failure } : {}),
      summary: {
        ...this.tally.summary(this.settings.url, Date.now() - this.startedAt),
        ...(this.analysisSummary ?? emptyAnalysis),
        ...(this.rules ? { rules: this.rules.tally() } : {}),
      },
    };
    this.options.onEvent(event);
    return event;
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
    if (!this.finished) this.options.onEvent(event);
  }
}

const emptyAnalysis = {
  brokenAnchors: 0,
  duplicateAnchors: 0,
  fattestPages: 0,
  pageSizeBuckets: [0, 0, 0, 0, 0, 0],
  fileTypes: [],
  certificateProblems: 0,
};

function statusFor(cause: DoneEvent['stoppedBy']): DoneEvent['status'] {
  switch (cause) {
    case 'cancelled':
      return ScanStatus.Cancelled;
    case 'timeout':
      return ScanStatus.Timeout;
    case 'link-limit':
    case 'error-limit':
      return ScanStatus.OverMaxLinks;
    case 'error':
      return ScanStatus.Failed;
    default:
      return ScanStatus.Complete;
  }
}

function describe(check: LinkCheck | undefined): string {
  if (!check) return 'no answer';
  return check.state === 'ok' ? 'not an HTML page' : check.message;
}
