import { startPageFailure } from '@linkaudit/core';
import { readSitemaps, type SitemapContents } from '../analysis/sitemaps.js';
import type { SiteAnalysis, SiteFiles } from '../analysis/site-analysis.js';
import type { AnchorIndex } from '../checks/anchors.js';
import type { CertificateInspector } from '../checks/certificates.js';
import type { QualityRules } from '../checks/quality-rules.js';
import type { LinkCheck, PageReadRecord, ScanEvent } from '../events.js';
import type { LinkChecker } from '../fetch/checker.js';
import { ScanStoppedError } from '../fetch/errors.js';
import type { HttpClient } from '../fetch/http-client.js';
import type { RetryPause } from '../fetch/retry-policy.js';
import type { ScanResume } from '../options.js';
import type { FoundLink } from '../extract/found-link.js';
import type { ResultCache } from './result-cache.js';
import type { ScanTally } from '../scan-tally.js';
import type { CrawlContext } from './crawl-context.js';
import type { Frontier } from './frontier.js';
import { engineExceptionCheck } from './immediate-checks.js';
import { LinkLedger } from './link-ledger.js';
import { PageReader, recordedFetch } from './page-reader.js';
import { pageBase, type PageBase } from './resolve-link.js';
import type { StopControl } from './stop-control.js';
import { maxStylesheetBytes, StylesheetReader } from './stylesheet-reader.js';
import type { Target } from './targets.js';
import type { PageRenderer } from '../render/page-renderer.js';
import type { ScriptBuiltSigns } from '../render/script-built.js';

/** Wakes the crawl loop when a fetch ends or the scan is told to stop. */
export class Wakeup {
  private resolve: (() => void) | undefined;

  wait(): Promise<void> {
    return new Promise<void>((resolve) => (this.resolve = resolve));
  }

  wake(): void {
    this.resolve?.();
  }
}

export interface SiteCrawlDeps {
  context: CrawlContext;
  rules: QualityRules | undefined;
  client: HttpClient;
  checker: LinkChecker;
  frontier: Frontier;
  stop: StopControl;
  wakeup: Wakeup;
  tally: ScanTally;
  anchors: AnchorIndex;
  analysis: SiteAnalysis;
  certificates: CertificateInspector | undefined;
  maxPageBytes: number;
  maxLinksPerPage: number;
  /** Whether occurrences that are fine become events. */
  okLinkEvents: boolean;
  /** What an interrupted run of this scan already checked (crash recovery). */
  resume?: ScanResume | undefined;
  /** External results kept between runs. */
  resultCache?: ResultCache | undefined;
  /** Addresses crawled besides the start page (EngineOptions.localFolder's pages). */
  pages: readonly string[];
  /** Emit each crawled page as read, for a later resume (EngineOptions.checkpointPages). */
  checkpointPages: boolean;
  emit: (event: ScanEvent) => void;
  /** True while the events' consumer is behind: no new fetch starts (wakeup says when to go on). */
  heldBack: () => boolean;
  /** Renders internal pages in a browser (settings.renderPages). */
  renderer?: PageRenderer | undefined;
  /** Without rendering: notes pages that look built by script. */
  scriptBuilt?: ScriptBuiltSigns | undefined;
}

/** The longest we wait for requests under way once a scan has been told to stop. */
const stopGraceMs = 800;

/**
 * The crawl of one site, made with its context complete: the start page first (its final address
 * decides the scope), then everything it leads to, up to maxThreadCount fetches at a time.
 */
export class SiteCrawl {
  readonly ledger: LinkLedger;
  private readonly reader: PageReader;
  private readonly stylesheets: StylesheetReader;
  private readonly settings: CrawlContext['settings'];
  private sitemap: SitemapContents | undefined;
  /** Source ids of the sitemaps and robots.txt whose links were taken in. */
  private readonly otherSources = new Map<string, number>();
  private active = 0;
  /** Of the active fetches, those waiting to retry: they hold no thread meanwhile. */
  private resting = 0;
  /** Pages an interrupted run read, by address: taken in without a fetch (crash recovery). */
  private readonly recordedPages = new Map<string, PageReadRecord>();

  constructor(private readonly deps: SiteCrawlDeps) {
    const { context, frontier, stop, tally, analysis, anchors, emit } = deps;
    this.settings = context.settings;
    this.ledger = new LinkLedger({
      context,
      frontier,
      stop,
      tally,
      analysis,
      anchors,
      certificates: deps.certificates,
      okLinkEvents: deps.okLinkEvents,
      resume: deps.resume,
      resultCache: deps.resultCache,
      emit,
    });
    this.reader = new PageReader({
      context,
      rules: deps.rules,
      ledger: this.ledger,
      anchors,
      analysis,
      tally,
      stop,
      maxPageBytes: deps.maxPageBytes,
      maxLinksPerPage: deps.maxLinksPerPage,
      checkpointPages: deps.checkpointPages,
      emit,
      renderer: deps.renderer,
      scriptBuilt: deps.scriptBuilt,
    });
    this.stylesheets = new StylesheetReader({
      context,
      checker: deps.checker,
      ledger: this.ledger,
      analysis,
      stop,
      maxBytes: Math.min(deps.maxPageBytes, maxStylesheetBytes),
      maxReferences: deps.maxLinksPerPage,
    });
    // Quality rules need each page's text, which a record does not keep: those pages are read.
    if (!deps.rules) {
      for (const record of deps.resume?.pages ?? []) this.recordedPages.set(record.url, record);
    }
  }

  /** The crawl to its end; a message when the start page could not be read. */
  async run(): Promise<string | undefined> {
    const { startUrl, scope } = this.deps.context;
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
    if (startCheck?.state !== 'ok') return startPageFailure(describe(startCheck));
    if (this.settings.checkPageInclusion) await this.addSitemapEntries(startUrl);
    this.addPages();
    await this.drain();
    return undefined;
  }

  /** The other pages to crawl (a folder's page files), unless a link already named them. */
  private addPages(): void {
    const flags = { crawl: true, readAnchors: false, resource: false };
    for (const page of this.deps.pages) {
      if (!this.ledger.find(page)) this.ledger.register(page, 1, flags);
    }
  }

  /** What the crawl read of the site itself, for the analysis at the end. */
  get siteFiles(): SiteFiles {
    return { sitemap: this.sitemap, robots: this.deps.context.robots };
  }

  /** Waits for fetches under way: all of them, or briefly once the scan was told to stop. */
  async settle(): Promise<void> {
    const deadline = Date.now() + (this.deps.stop.stopped ? stopGraceMs : Number.POSITIVE_INFINITY);
    while (this.active > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Sitemap entries join the crawl, so orphans and broken entries are found too: each is a link
   * whose source is its sitemap, at its `<loc>`. They are found at the deepest depth the scan
   * crawls (a page only the sitemap lists is read, the pages it leads to are not). The sitemaps
   * themselves are links too: robots.txt's `Sitemap:` lines and a sitemap index's `<loc>`s, so a
   * sitemap that robots.txt names and the server does not have is a broken link, not nothing.
   */
  private async addSitemapEntries(startUrl: URL): Promise<void> {
    const { context, client } = this.deps;
    this.sitemap = await readSitemaps(client, startUrl.origin, context.robots.sitemaps);
    const base = pageBase(startUrl, context.scope);
    const robotsUrl = `${startUrl.origin}/robots.txt`;
    for (const { url: raw, line, column } of context.robots.sitemapLines) {
      this.takeInFrom(
        robotsUrl,
        { raw, element: 'robots', attribute: 'Sitemap', kind: 'page', line, column },
        base,
      );
    }
    for (const { url: raw, sitemap, line, column } of this.sitemap.indexEntries) {
      this.takeInFrom(
        sitemap,
        { raw, element: 'sitemap', attribute: 'loc', kind: 'page', line, column },
        base,
      );
    }
    for (const { url: raw, sitemap, line, column } of this.sitemap.entries) {
      this.takeInFrom(
        sitemap,
        { raw, element: 'sitemap', attribute: 'loc', kind: 'page', line, column },
        base,
      );
    }
  }

  /** Takes in a link of a source that is no page (a sitemap, robots.txt), made once per address. */
  private takeInFrom(sourceUrl: string, link: FoundLink, base: PageBase): void {
    let pageId = this.otherSources.get(sourceUrl);
    if (pageId === undefined)
      this.otherSources.set(sourceUrl, (pageId = this.ledger.addSource(sourceUrl)));
    this.ledger.takeIn({ pageId, targetId: -1, depth: this.settings.maxDepth - 1 }, link, base);
  }

  /**
   * Keeps up to maxThreadCount fetches under way until the frontier is empty or the scan stops;
   * none starts while the events' consumer holds the crawl back.
   */
  private async drain(): Promise<void> {
    const { frontier, stop, wakeup, heldBack } = this.deps;
    while (!stop.stopped) {
      let target: Target | undefined;
      while (
        this.active - this.resting < this.settings.maxThreadCount &&
        !heldBack() &&
        (target = frontier.take())
      )
        this.launch(target);
      if (this.active === 0 && frontier.size === 0) return;
      await wakeup.wait();
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
        this.deps.frontier.release(target);
        this.deps.wakeup.wake();
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
    const { checker } = this.deps;
    if (target.stylesheet) {
      const check = await this.stylesheets.read(target, pause);
      this.ledger.settle(target, check);
      return check;
    }
    if (!target.crawl && !target.readAnchors) {
      const check = await checker.check(target.url, { measure: target.resource, pause });
      this.ledger.settle(target, check);
      return check;
    }
    const recorded = this.takeRecordedPage(target.url);
    const fetched = recorded ? recordedFetch(recorded) : await checker.fetchPage(target.url, pause);
    let finalAddress: Target | undefined;
    if (fetched.html) {
      onPageUrl?.(fetched.html.finalUrl);
      finalAddress = await this.reader.read(target, fetched, recorded);
    }
    const check = withReadSize(fetched.check, target.bytes);
    this.ledger.settle(target, check);
    if (finalAddress && check.state === 'ok')
      this.ledger.settle(finalAddress, { ...check, redirects: [] });
    return check;
  }

  /**
   * A target checked first and linked for a visitor later: fetched again and read as a page; or
   * linked as a stylesheet later: fetched again and read for its references.
   */
  private async reread(target: Target, pause?: RetryPause): Promise<LinkCheck | undefined> {
    try {
      if (target.stylesheet) await this.stylesheets.read(target, pause);
      // (Read as a page meanwhile, or its address is read through another target.)
      else if (target.pageId === undefined && target.sameAs === undefined) {
        const recorded = this.takeRecordedPage(target.url);
        const fetched = recorded
          ? recordedFetch(recorded)
          : await this.deps.checker.fetchPage(target.url, pause);
        if (fetched.html) await this.reader.read(target, fetched, recorded);
      }
    } finally {
      this.ledger.finishReread(target);
    }
    return target.check;
  }

  /** The record of a page the interrupted run read at this address (used once), if any. */
  private takeRecordedPage(url: string): PageReadRecord | undefined {
    const record = this.recordedPages.get(url);
    if (record) this.recordedPages.delete(url);
    return record;
  }

  /**
   * A target waiting to retry gives its thread and its host slot to the rest of the crawl, and
   * goes on at once when the wait is over (a host may then briefly see one request more than
   * its cap per waking retry).
   */
  private pauseFor(target: Target): RetryPause {
    const { frontier, wakeup } = this.deps;
    return {
      begin: () => {
        this.resting++;
        frontier.release(target);
        wakeup.wake();
      },
      end: () => {
        this.resting--;
        frontier.reclaim(target);
      },
    };
  }
}

/**
 * A page's check with the bytes of HTML read as its size (issue 37): a page sent chunked has no
 * Content-Length, and a compressed one states its compressed length, so the size every reader
 * of the check sums (the report's file types) is what was read, as the engine's own file types
 * and page weights count it.
 */
function withReadSize(check: LinkCheck, bytes: number | undefined): LinkCheck {
  return check.state === 'ok' && bytes !== undefined ? { ...check, size: bytes } : check;
}

function describe(check: LinkCheck | undefined): string {
  if (!check) return 'no answer';
  return check.state === 'ok' ? 'not an HTML page' : check.message;
}
