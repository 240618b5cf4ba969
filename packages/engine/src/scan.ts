import {
  ScanStatus,
  effectiveLinkLimit,
  effectiveMaxDepth,
  scanSettingsSchema,
  type ScanSettings,
  type ScanSettingsInput,
} from '@linkaudit/core';
import { compileExclusions, exclusionProblems } from './crawl/exclusions.js';
import { Frontier } from './crawl/frontier.js';
import { engineExceptionCheck, skippedCheck } from './crawl/immediate-checks.js';
import { takeLink, type IntakeContext } from './crawl/link-intake.js';
import { loadRobots } from './crawl/robots.js';
import { SiteScope } from './crawl/site-scope.js';
import { StopControl } from './crawl/stop-control.js';
import { LinkShapes, PendingOccurrences, type Target } from './crawl/targets.js';
import type { DoneEvent, LinkCheck, ScanEvent, ScanSummary } from './events.js';
import { HtmlLinkExtractor } from './extract/html-links.js';
import { ScanStoppedError } from './fetch/errors.js';
import { LinkChecker, type PageFetch } from './fetch/checker.js';
import { decodeHtml } from './fetch/decode.js';
import { HttpClient, closeBody } from './fetch/http-client.js';
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

/** One scan from start to `done`: fetch the start page, then crawl until nothing is left. */
class ScanRun {
  private readonly startedAt = Date.now();
  private readonly stop: StopControl;
  private readonly client: HttpClient;
  private readonly checker: LinkChecker;
  private readonly frontier: Frontier;
  private readonly targets = new Map<string, Target>();
  private readonly pending = new PendingOccurrences();
  private readonly shapes = new LinkShapes();
  private readonly pageUrls: string[] = [];
  private readonly parsedPages = new Set<string>();
  private readonly tally = new ScanTally();
  private readonly linkLimit: number;
  private context!: IntakeContext;
  private active = 0;
  private fetchCount = 0;
  private limitReached = false;
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
    this.linkLimit = effectiveLinkLimit(settings);
    this.client = new HttpClient({
      userAgent: options.userAgent ?? engineDefaults.userAgent,
      requestTimeoutMs: options.requestTimeoutMs ?? engineDefaults.requestTimeoutMs,
      retries: options.retries ?? engineDefaults.retries,
      retryBaseDelayMs: options.retryBaseDelayMs ?? engineDefaults.retryBaseDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? engineDefaults.maxRetryAfterMs,
      maxRedirects: options.maxRedirects ?? engineDefaults.maxRedirects,
      connections: settings.maxThreadCount,
      verifyCertificates: settings.checkBrokenCertificate,
      lookup: options.lookup,
      ca: options.ca,
      signal: this.stop.signal,
    });
    this.checker = new LinkChecker(this.client);
    const perHost = Math.min(
      settings.maxThreadCount,
      options.perHostConcurrency ?? engineDefaults.perHostConcurrency,
    );
    this.frontier = new Frontier((target) => (target.internal ? settings.maxThreadCount : perHost));
  }

  async execute(): Promise<DoneEvent> {
    let failure: string | undefined;
    try {
      failure = await this.crawl();
    } catch (error) {
      if (!(error instanceof ScanStoppedError))
        failure = `Engine error: ${(error as Error).message}`;
    } finally {
      await this.finish();
    }
    return this.done(failure);
  }

  /** The table of contents: start page first (it decides the scope), then everything it leads to. */
  private async crawl(): Promise<string | undefined> {
    const startUrl = this.startUrl();
    if (typeof startUrl === 'string') return startUrl;
    this.startProgress();
    const robots = this.settings.respectRobotsTxt
      ? await loadRobots(this.client, startUrl.origin)
      : { isAllowed: () => true };
    const scope = new SiteScope(startUrl, this.settings.scanDepth, this.settings.caseSensitive);
    this.context = {
      settings: this.settings,
      scope,
      exclusions: compileExclusions(this.settings.excludeLinks, this.settings.caseSensitive),
      robots,
      maxDepth: effectiveMaxDepth(this.settings),
    };
    // The start page is fetched alone, before anything else: it decides the scope.
    const start = this.register(startUrl.href, startUrl.host, true, 1, true, false);
    const startCheck = await this.process(start, (finalUrl) =>
      scope.useStartPage(new URL(finalUrl)),
    );
    if (startCheck.state !== 'ok')
      return `The start page could not be fetched: ${describe(startCheck)}`;
    await this.drain();
    return undefined;
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

  /** Keeps up to maxThreadCount fetches under way until the frontier is empty or the scan stops. */
  private async drain(): Promise<void> {
    while (!this.stop.stopped) {
      let target: Target | undefined;
      while (this.active < this.settings.maxThreadCount && (target = this.frontier.take())) {
        this.launch(target);
      }
      if (this.active === 0 && this.frontier.size === 0) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private launch(target: Target): void {
    this.active++;
    this.process(target)
      .catch((error: unknown) => {
        if (!(error instanceof ScanStoppedError)) this.settle(target, engineExceptionCheck(error));
      })
      .finally(() => {
        this.active--;
        this.frontier.release(target);
        this.wake?.();
      });
  }

  /** Fetches one target; a page to crawl is parsed and its links taken in. */
  private async process(
    target: Target,
    onPageUrl?: (finalUrl: string) => void,
  ): Promise<LinkCheck> {
    // Already answered by a redirected page's alias while it waited in the frontier.
    if (target.state === 'settled' && target.check) return target.check;
    target.state = 'active';
    if (!target.crawl) {
      const check = await this.checker.check(target.url);
      this.settle(target, check);
      return check;
    }
    const fetched = await this.checker.fetchPage(target.url);
    this.settle(target, fetched.check);
    if (fetched.html) {
      onPageUrl?.(fetched.html.finalUrl);
      await this.parsePage(target, fetched);
    }
    return fetched.check;
  }

  private async parsePage(target: Target, fetched: PageFetch): Promise<void> {
    const html = fetched.html;
    if (!html || fetched.check.state !== 'ok') return;
    const finalKey = this.keyOf(html.finalUrl);
    if (this.parsedPages.has(finalKey)) {
      closeBody(html.response.body);
      return;
    }
    this.parsedPages.add(finalKey);
    this.settleAlias(html.finalUrl, finalKey, target);

    const extractor = new HtmlLinkExtractor();
    let bytes = 0;
    const headers = {
      contentType: html.contentType,
      contentEncoding: firstHeader(html.response.headers['content-encoding']),
    };
    const maxBytes = this.options.maxPageBytes ?? engineDefaults.maxPageBytes;
    try {
      for await (const text of decodeHtml(
        html.response.body,
        headers,
        maxBytes,
        (n) => (bytes += n),
      )) {
        extractor.write(text);
      }
    } catch (error) {
      if (this.stop.stopped) throw new ScanStoppedError();
      void error; // a body cut short still yields the links that arrived
    }
    const page = extractor.end();
    const sourceId = this.pageUrls.push(html.finalUrl) - 1;
    this.tally.pages++;
    this.emit({
      type: 'page',
      url: target.url,
      finalUrl: html.finalUrl,
      statusCode: fetched.check.statusCode,
      contentType: html.contentType,
      bytes,
      depth: target.depth,
      ...(page.title ? { title: page.title } : {}),
      linkCount: page.links.length,
    });
    const base = resolveBase(page.baseHref, html.finalUrl);
    for (const link of page.links) this.takeIn(sourceId, link, base, target.depth);
  }

  /** One link occurrence: answered now when its outcome is known, else queued with its target. */
  private takeIn(
    sourceId: number,
    link: Parameters<typeof takeLink>[0],
    base: URL,
    depth: number,
  ): void {
    const intake = takeLink(link, base, depth, this.context);
    const shape = this.shapes.intern(link.element, link.attribute, link.kind);
    if (intake.type === 'known') {
      this.tally.brokenWithoutUrl(intake.check);
      this.emitLink(
        sourceId,
        shape,
        link.line,
        link.column,
        intake.target,
        intake.url,
        intake.internal,
        intake.check,
      );
      return;
    }
    let target = this.targets.get(intake.key);
    if (!target) {
      if (this.stop.stopped || this.fetchCount >= this.linkLimit) {
        if (!this.stop.stopped) this.limitReached = true;
        const url = intake.url + intake.fragment;
        this.emitLink(
          sourceId,
          shape,
          link.line,
          link.column,
          url,
          intake.url,
          intake.internal,
          skippedCheck('limit'),
        );
        return;
      }
      target = this.register(intake.url, intake.host, intake.internal, depth + 1, intake.crawl);
    } else if (target.state === 'queued' && depth + 1 < target.depth) {
      target.depth = depth + 1;
      target.crawl ||= intake.crawl;
    } else if (target.state === 'queued') {
      target.crawl ||= intake.crawl;
    }
    const occurrence = {
      sourceId,
      line: link.line,
      column: link.column,
      shape,
      fragment: intake.fragment,
    };
    if (target.check) {
      this.emitOccurrence(target, occurrence);
    } else {
      this.pending.add(target, occurrence);
    }
  }

  private register(
    url: string,
    host: string,
    internal: boolean,
    depth: number,
    crawl: boolean,
    enqueue = true,
  ): Target {
    const key = this.keyOf(url);
    const target: Target = {
      id: this.targets.size,
      url,
      host,
      internal,
      depth,
      crawl,
      state: 'queued',
      pendingHead: -1,
    };
    this.targets.set(key, target);
    this.fetchCount++;
    if (enqueue) this.frontier.push(target);
    return target;
  }

  /** A page reached through redirects answers for its final address too, without a second fetch. */
  private settleAlias(finalUrl: string, finalKey: string, original: Target): void {
    if (finalKey === this.keyOf(original.url) || !original.check || original.check.state !== 'ok')
      return;
    const check: LinkCheck = { ...original.check, redirects: [] };
    const existing = this.targets.get(finalKey);
    if (existing) {
      if (existing.state === 'queued') this.settle(existing, check);
      return;
    }
    const url = new URL(finalUrl);
    const alias: Target = {
      id: this.targets.size,
      url: finalUrl,
      host: url.host,
      internal: this.context.scope.isInternal(url),
      depth: original.depth,
      crawl: false,
      state: 'settled',
      check,
      pendingHead: -1,
    };
    this.targets.set(finalKey, alias);
    this.tally.settle(check);
  }

  private settle(target: Target, check: LinkCheck): void {
    if (target.state === 'settled' || this.finished) return;
    target.state = 'settled';
    target.check = check;
    this.tally.settle(check);
    for (const occurrence of this.pending.take(target)) this.emitOccurrence(target, occurrence);
    if (this.tally.uniqueBroken >= this.settings.maxErrorCount) this.stop.stop('error-limit');
  }

  private emitOccurrence(
    target: Target,
    occurrence: { sourceId: number; line: number; column: number; shape: number; fragment: string },
  ): void {
    const check = target.check ?? skippedCheck('limit');
    this.emitLink(
      occurrence.sourceId,
      occurrence.shape,
      occurrence.line,
      occurrence.column,
      target.url + occurrence.fragment,
      target.url,
      target.internal,
      check,
    );
  }

  private emitLink(
    sourceId: number,
    shape: number,
    line: number,
    column: number,
    target: string,
    url: string,
    internal: boolean,
    check: LinkCheck,
  ): void {
    const { element, attribute, kind } = this.shapes.get(shape);
    this.tally.occurrence(check);
    this.emit({
      type: 'link',
      source: this.pageUrls[sourceId] ?? '',
      target,
      url,
      element,
      attribute,
      line,
      column,
      kind,
      internal,
      check,
    });
  }

  /** Stops the crawl: what was still waiting or under way is reported as not checked. */
  private async finish(): Promise<void> {
    if (this.active > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, stopGraceMs);
        const poll = setInterval(() => {
          if (this.active === 0) {
            clearTimeout(timer);
            clearInterval(poll);
            resolve();
          }
        }, 10);
        timer.unref();
        setTimeout(() => clearInterval(poll), stopGraceMs).unref();
      });
    }
    for (const target of [...this.frontier.drain(), ...this.targets.values()]) {
      if (target.state !== 'settled') this.settleSkipped(target);
    }
    this.finished = true;
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.stop.dispose();
    await this.client.close().catch(() => undefined);
  }

  private settleSkipped(target: Target): void {
    target.state = 'settled';
    target.check = skippedCheck('limit');
    for (const occurrence of this.pending.take(target)) this.emitOccurrence(target, occurrence);
  }

  private done(failure: string | undefined): DoneEvent {
    this.emitProgress();
    const cause =
      this.stop.stopCause ?? (failure ? 'error' : this.limitReached ? 'link-limit' : undefined);
    const event: DoneEvent = {
      type: 'done',
      status: failure ? ScanStatus.Failed : statusFor(cause),
      ...(cause ? { stoppedBy: cause } : {}),
      ...(failure ? { error: failure } : {}),
      summary: this.summary(),
    };
    this.options.onEvent(event);
    return event;
  }

  private summary(): ScanSummary {
    return this.tally.summary(this.settings.url, Date.now() - this.startedAt);
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
    if (!this.finished || event.type === 'done') this.options.onEvent(event);
  }

  private keyOf(url: string): string {
    return this.settings.caseSensitive ? url : url.toLowerCase();
  }
}

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

function resolveBase(baseHref: string | undefined, pageUrl: string): URL {
  const page = new URL(pageUrl);
  if (!baseHref) return page;
  try {
    return new URL(baseHref, page);
  } catch {
    return page;
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describe(check: LinkCheck): string {
  return check.state === 'broken' || check.state === 'unverified' || check.state === 'skipped'
    ? check.message
    : 'unknown';
}
