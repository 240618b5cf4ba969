import type { CrawlSettings } from '../crawl-settings.js';
import { isResourceKind, type SiteAnalysis } from '../analysis/site-analysis.js';
import { isTrivialFragment, type AnchorIndex } from '../checks/anchors.js';
import type { CertificateInspector } from '../checks/certificates.js';
import type { AnchorCheck, LinkCheck, LinkEvent, ScanEvent } from '../events.js';
import type { FoundLink } from '../extract/found-link.js';
import { isHtmlType } from '../fetch/checker.js';
import type { ScanResume } from '../options.js';
import type { ScanTally } from '../scan-tally.js';
import { crawlerTrap, crawlerTrapCheck } from './crawler-traps.js';
import type { Frontier } from './frontier.js';
import { skippedCheck } from './immediate-checks.js';
import { addressKeyOf, type CrawlContext } from './crawl-context.js';
import { compactCheck, Interner } from './compact-values.js';
import { LinkIntake } from './link-intake.js';
import { ResultCacheUse, type ResultCache } from './result-cache.js';
import {
  addressPrefix,
  pathAndQuery,
  urlOf,
  type PageBase,
  type ResolvedLink,
} from './resolve-link.js';
import type { StopControl } from './stop-control.js';
import { LinkShapes, PendingOccurrences, type Target } from './targets.js';

export interface LedgerDeps {
  context: CrawlContext;
  frontier: Frontier;
  stop: StopControl;
  tally: ScanTally;
  analysis: SiteAnalysis;
  anchors: AnchorIndex;
  certificates: CertificateInspector | undefined;
  /** Whether occurrences that are fine (target OK, fragment found or not checked) become events. */
  okLinkEvents: boolean;
  /** What an interrupted run of this scan already checked (crash recovery). */
  resume?: ScanResume | undefined;
  /** External results kept between runs (EngineOptions.resultCache). */
  resultCache?: ResultCache | undefined;
  emit: (event: ScanEvent) => void;
}

/** The page a link was found on (or the stylesheet: see addStylesheet). */
export interface LinkSource {
  /** A page's id; a stylesheet's is negative (stylesheets are no pages of the link graph). */
  pageId: number;
  targetId: number;
  depth: number;
}

export interface TargetFlags {
  crawl: boolean;
  readAnchors: boolean;
  resource: boolean;
  stylesheet?: boolean;
}

/** How deep `@import` chains are followed (page → a.css is 1); deeper ones are only checked. */
export const maxImportNesting = 8;

/**
 * Every unique URL of the scan and every link occurrence waiting for it: registers targets
 * (the seen index), answers occurrences as soon as their target's check is known, and keeps
 * the counts. The scan loop decides what to fetch; the ledger decides what each link means.
 */
export class LinkLedger {
  readonly targets: Target[] = [];
  /**
   * The seen index: per address prefix (scheme, host…), targets by path and query. Links are
   * looked up by the path alone, so the URL string of a link is never built unless the link
   * turns out to be new (hashing the shorter key is cheaper too).
   */
  private readonly byPrefix = new Map<string, Map<string, Target>>();
  private lastPrefix = '';
  private lastIndex = new Map<string, Target>();
  private readonly pending = new PendingOccurrences();
  private readonly shapes = new LinkShapes();
  private readonly intake = new LinkIntake();
  private readonly pageUrls: string[] = [];
  /** Sources that are no pages (stylesheets, sitemaps), by -1 - their source id. */
  private readonly otherSources: string[] = [];
  /** Of those that are stylesheets: how deep in an @import chain. */
  private readonly stylesheetNesting: number[] = [];
  /** Stylesheets to read, by target id: how deep in an @import chain (few per site). */
  private readonly nestingOf = new Map<number, number>();
  /** Host names and content types, each kept once (see compact-values.ts). */
  readonly strings = new Interner();
  /** Checks of an interrupted run, by address key, until a link names their URL. */
  private readonly resumed: Map<string, LinkCheck>;
  private readonly cache: ResultCacheUse | undefined;
  private closed = false;
  limitReached = false;
  private readonly context: CrawlContext;
  private readonly settings: CrawlSettings;
  readonly keyOf: (url: string) => string;

  constructor(private readonly deps: LedgerDeps) {
    this.context = deps.context;
    this.settings = deps.context.settings;
    this.keyOf = addressKeyOf(this.settings, this.context.fromFolder);
    this.resumed = new Map(
      (deps.resume?.checked ?? []).map(({ url, check }) => [this.keyOf(url), check]),
    );
    this.cache =
      deps.resultCache &&
      new ResultCacheUse(deps.resultCache, deps.anchors, this.settings.checkAnchors);
  }

  find(url: string): Target | undefined {
    const parsed = URL.parse(url);
    if (!parsed) return undefined;
    const { prefix, path } = splitAddress(parsed);
    return this.siteIndex(prefix).get(this.keyOf(path));
  }

  /** The index of one address prefix; prefixes that differ only in case share it unless the scan is case-sensitive. */
  private siteIndex(prefix: string): Map<string, Target> {
    // Most links lead to the site of the page they are on: one comparison, not a lookup.
    if (prefix === this.lastPrefix) return this.lastIndex;
    let index = this.byPrefix.get(prefix);
    if (index === undefined) {
      const key = this.keyOf(prefix);
      index = this.byPrefix.get(key) ?? new Map<string, Target>();
      this.byPrefix.set(key, index);
      this.byPrefix.set(prefix, index);
    }
    this.lastPrefix = prefix;
    this.lastIndex = index;
    return index;
  }

  /** A new page; its id numbers its links' sources. */
  addPage(url: string): number {
    return this.pageUrls.push(url) - 1;
  }

  /**
   * A stylesheet read for its references: its source id (negative, beside the pages' ids), so
   * its links name the stylesheet as their source.
   */
  addStylesheet(url: string, target: Target): number {
    const sourceId = this.addSource(url);
    this.stylesheetNesting[-1 - sourceId] = this.nestingOf.get(target.id) ?? 1;
    this.nestingOf.delete(target.id);
    return sourceId;
  }

  /** A source of links that is no page of the link graph (a stylesheet, a sitemap): its id. */
  addSource(url: string): number {
    return -this.otherSources.push(url);
  }

  pageUrl(pageId: number): string {
    return (pageId >= 0 ? this.pageUrls[pageId] : this.otherSources[-1 - pageId]) ?? '';
  }

  register(url: string, depth: number, flags: TargetFlags, enqueue = true): Target {
    const parsed = new URL(url);
    const target: Target = {
      id: this.targets.length,
      url,
      host: this.strings.intern(parsed.host),
      internal: this.context.scope.isInternal(parsed),
      depth,
      crawl: flags.crawl,
      readAnchors: flags.readAnchors,
      resource: flags.resource,
      stylesheet: flags.stylesheet ?? false,
      state: 'queued',
      pendingHead: -1,
      // Set as the crawl goes; named here so they live in the object itself, not in a property
      // array added later (~80 bytes a URL, 80 MB over a million).
      alias: undefined,
      pageId: undefined,
      claimedBy: undefined,
      sameAs: undefined,
      pageRead: undefined,
      bytes: undefined,
      reread: undefined,
      check: undefined,
    };
    this.targets.push(target);
    const { prefix, path } = splitAddress(parsed);
    this.siteIndex(prefix).set(ownedCopy(this.keyOf(path)), target);
    if (this.settings.checkBrokenCertificate) this.deps.certificates?.inspect(parsed);
    if (!enqueue) return target;
    const resumed = this.resumedCheck(target) ?? this.cache?.answer(target);
    if (resumed) this.settle(target, resumed);
    else this.deps.frontier.push(target);
    return target;
  }

  /**
   * The check an interrupted run already made of this target, unless the crawl must read what
   * it answers: an HTML page to crawl, or one whose anchors may be checked, is fetched again.
   */
  private resumedCheck(target: Target): LinkCheck | undefined {
    if (this.resumed.size === 0) return undefined;
    const key = this.keyOf(target.url);
    const check = this.resumed.get(key);
    if (!check) return undefined;
    if (target.stylesheet) return undefined; // (read again for its references)
    const readable = check.state === 'ok' && isHtmlType(check.contentType ?? '');
    if (readable && (target.crawl || target.readAnchors || this.settings.checkAnchors))
      return undefined;
    this.resumed.delete(key);
    return check;
  }

  /** Fetchable targets registered so far (the link limit counts these). */
  get fetchable(): number {
    return this.targets.length - this.aliases;
  }
  private aliases = 0;

  /**
   * One link occurrence on a page: answered now when its outcome is known, else queued with its
   * target. Returns the target's id when the link names a URL to fetch.
   */
  takeIn(source: LinkSource, link: FoundLink, base: PageBase): number | undefined {
    const intake = this.intake;
    const shape = this.shapes.intern(link.element, link.attribute, link.kind, link.rendered);
    if (intake.take(link, base, source.depth, this.context) === 'known') {
      this.deps.tally.brokenWithoutUrl(intake.check, intake.target);
      this.emitLink(
        source.pageId,
        shape,
        link.line,
        link.column,
        intake.target,
        intake.url,
        intake.internal,
        intake.check,
      );
      this.stopAtErrorLimit();
      return undefined;
    }
    const { fragment, internal } = intake.link;
    const readAnchors = this.settings.checkAnchors && intake.navigational && !intake.crawl;
    const resource = isResourceKind(link.kind);
    const nesting = this.importNesting(source, link);
    const target = this.targetFor(
      intake.link,
      source.depth + 1,
      intake.crawl,
      readAnchors,
      resource,
      nesting,
    );
    if (!target) {
      const url = urlOf(intake.link);
      this.emitLink(
        source.pageId,
        shape,
        link.line,
        link.column,
        url + fragment,
        url,
        internal,
        skippedCheck('limit'),
      );
      return undefined;
    }
    if (target.internal && source.pageId >= 0)
      this.deps.analysis.recordInternalLink(source.pageId, source.targetId, target.id);
    if (target.check && !target.reread)
      this.answer(target, source.pageId, link.line, link.column, shape, fragment);
    else this.pending.add(target, source.pageId, link.line, link.column, shape, fragment);
    return target.id;
  }

  /**
   * For a stylesheet to read: how deep in an @import chain it is (1 when a page links it); 0 when
   * it is not one to read (another kind, or past maxImportNesting). External stylesheets are read
   * too: a missing font of a theme on a CDN is as broken for the visitor as one of the site.
   */
  private importNesting(source: LinkSource, link: FoundLink): number {
    if (link.kind !== 'stylesheet') return 0;
    const nesting =
      source.pageId >= 0 ? 1 : (this.stylesheetNesting[-1 - source.pageId] ?? maxImportNesting) + 1;
    return nesting <= maxImportNesting ? nesting : 0;
  }

  /**
   * The known target, upgraded by what this link adds, or a new one; undefined past the link
   * limit. `nesting` > 0: a stylesheet to read (a target already fetched is not fetched again).
   */
  private targetFor(
    link: ResolvedLink,
    depth: number,
    crawl: boolean,
    readAnchors: boolean,
    resource: boolean,
    nesting: number,
  ): Target | undefined {
    const existing = this.siteIndex(link.prefix).get(this.keyOf(link.path));
    if (existing) {
      if (existing.state === 'queued') {
        existing.depth = Math.min(existing.depth, depth);
        existing.crawl ||= crawl;
        existing.readAnchors = (existing.readAnchors || readAnchors) && !existing.crawl;
        if (nesting > 0) this.readAsStylesheet(existing, nesting);
      } else if (nesting > 0 && !existing.stylesheet) {
        this.readStylesheetLater(existing, nesting);
      } else if (crawl && !existing.crawl) {
        this.crawlLater(existing, depth);
      }
      existing.resource ||= resource;
      return existing;
    }
    if (this.deps.stop.stopped) return undefined;
    if (this.fetchable >= this.settings.linkLimit) {
      this.limitReached = true;
      return undefined;
    }
    // A page to crawl whose address looks like a crawler trap is reported, not followed.
    const trap = crawl ? crawlerTrap(link.path) : undefined;
    const flags = { crawl: crawl && !trap, readAnchors, resource, stylesheet: nesting > 0 };
    if (nesting > 0) this.nestingOf.set(this.targets.length, nesting);
    const target = this.register(urlOf(link), depth, flags, !trap);
    if (trap) this.settle(target, crawlerTrapCheck(trap));
    return target;
  }

  /** A queued target is a stylesheet to read, at the shallowest nesting it was found at. */
  private readAsStylesheet(target: Target, nesting: number): void {
    target.stylesheet = true;
    this.nestingOf.set(target.id, Math.min(nesting, this.nestingOf.get(target.id) ?? nesting));
  }

  /**
   * A target already checked (or under way) that a link a visitor follows now makes a page to
   * crawl: read again once its check says there is a page to read.
   */
  private crawlLater(target: Target, depth: number): void {
    target.depth = Math.min(target.depth, depth);
    if (target.reread) return;
    target.reread = true;
    if (target.check) this.queueReread(target, target.check);
  }

  /**
   * A target already checked (or under way) as something else — a page, a download — that a
   * page now links or imports as a stylesheet: fetched again once and read for its references.
   */
  private readStylesheetLater(target: Target, nesting: number): void {
    this.readAsStylesheet(target, nesting);
    if (target.reread) return;
    target.reread = true;
    if (target.check) this.queueReread(target, target.check);
  }

  private queueReread(target: Target, check: LinkCheck): void {
    if (target.stylesheet) {
      if (check.state === 'ok') this.deps.frontier.push(target);
      else target.reread = false;
      return;
    }
    if (check.state !== 'ok' || !isHtmlType(check.contentType ?? '')) {
      target.reread = false;
      return;
    }
    target.crawl = true;
    target.readAnchors = false;
    this.deps.frontier.push(target);
  }

  /** The page of a re-queued target has been read (or could not be): its links get answers. */
  finishReread(target: Target): void {
    target.reread = false;
    if (target.state === 'settled') this.answerPending(target);
  }

  settle(target: Target, check: LinkCheck): void {
    if (target.state === 'settled' || this.closed) return;
    target.state = 'settled';
    target.check = compactCheck(check, target.url, this.strings);
    this.cache?.keep(target, check);
    this.deps.tally.settle(check);
    if (target.reread) this.queueReread(target, check);
    if (!target.reread) this.answerPending(target);
    this.stopAtErrorLimit();
  }

  private answerPending(target: Target): void {
    this.pending.drain(target, (sourceId, line, column, shape, fragment) =>
      this.answer(target, sourceId, line, column, shape, fragment),
    );
  }

  private stopAtErrorLimit(): void {
    if (this.deps.tally.uniqueBroken >= this.settings.maxErrorCount)
      this.deps.stop.stop('error-limit');
  }

  /**
   * Claims the right to read a page. For a redirect, the target standing for its final address
   * is claimed too, so that address is neither fetched again nor parsed twice; when another
   * fetch already claimed it, the answer names that target instead.
   */
  claimPage(
    target: Target,
    finalUrl: string,
  ): { read: true; finalAddress?: Target } | { read: false; readBy: Target } {
    // (A target that claimed its page before reads it again only when re-queued to crawl it.)
    if (target.claimedBy && target.claimedBy !== target)
      return { read: false, readBy: target.claimedBy };
    target.claimedBy = target;
    if (this.keyOf(finalUrl) === this.keyOf(target.url)) return { read: true };
    const existing = this.find(finalUrl);
    if (existing?.claimedBy && existing.claimedBy !== target)
      return { read: false, readBy: existing.claimedBy };
    let finalAddress = existing;
    if (!finalAddress) {
      finalAddress = this.register(
        finalUrl,
        target.depth,
        { crawl: false, readAnchors: false, resource: false },
        false,
      );
      finalAddress.alias = true;
      this.aliases++;
    }
    if (finalAddress.state === 'queued') finalAddress.state = 'active';
    finalAddress.claimedBy = target;
    return { read: true, finalAddress };
  }

  /** Stops the ledger: whatever still waits is reported as not checked. */
  close(): void {
    for (const target of this.targets) {
      if (target.state !== 'settled') {
        target.state = 'settled';
        target.check = skippedCheck('limit');
      }
      target.reread = false;
      if (target.pendingHead !== -1) this.answerPending(target);
    }
    this.closed = true;
  }

  /**
   * One occurrence of a target whose check is known: a link event, or only a count when it is
   * fine and the consumer asked for problems only.
   */
  private answer(
    target: Target,
    sourceId: number,
    line: number,
    column: number,
    shape: number,
    fragment: string,
  ): void {
    const check = target.check ?? skippedCheck('limit');
    const anchor = this.anchorCheck(target, fragment, check);
    if (
      !this.deps.okLinkEvents &&
      check.state === 'ok' &&
      !check.warning &&
      (!anchor || anchor.state === 'found')
    ) {
      this.deps.tally.occurrence(check);
      return;
    }
    this.emitLink(
      sourceId,
      shape,
      line,
      column,
      target.url + fragment,
      target.url,
      target.internal,
      check,
      anchor,
    );
  }

  private anchorCheck(target: Target, fragment: string, check: LinkCheck): AnchorCheck | undefined {
    if (!this.settings.checkAnchors || check.state !== 'ok' || isTrivialFragment(fragment))
      return undefined;
    const anchor = this.deps.anchors.check(target.id, fragment);
    if (anchor.state === 'missing') this.deps.analysis.brokenAnchors++;
    return anchor;
  }

  private emitLink(
    pageId: number,
    shape: number,
    line: number,
    column: number,
    target: string,
    url: string,
    internal: boolean,
    check: LinkCheck,
    anchor?: AnchorCheck,
  ): void {
    const { element, attribute, kind, rendered } = this.shapes.get(shape);
    this.deps.tally.occurrence(check);
    const event: LinkEvent = {
      type: 'link',
      source: this.pageUrl(pageId),
      target,
      url,
      element,
      attribute,
      line,
      column,
      kind,
      internal,
      check,
    };
    if (anchor) event.anchor = anchor;
    if (rendered) event.rendered = true;
    this.deps.emit(event);
  }
}

/** An address as its prefix (scheme, user info, host, port) and its path and query. */
function splitAddress(url: URL): { prefix: string; path: string } {
  const prefix = addressPrefix(url);
  return { prefix, path: pathAndQuery(url) };
}

/**
 * The same text in a string of its own. URL.pathname is a slice of the URL's href, and a slice
 * kept as a key keeps its parent alive and costs one more memory access on every lookup that
 * compares with it: 8% of the link intake on the bench site.
 */
function ownedCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
