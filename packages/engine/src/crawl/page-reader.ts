import { isNotFoundTitle } from '../fetch/open-web-verdicts.js';
import { isResourceKind, type SiteAnalysis } from '../analysis/site-analysis.js';
import { findDuplicateAnchors, type AnchorIndex } from '../checks/anchors.js';
import type { QualityRules } from '../checks/quality-rules.js';
import { Readable } from 'node:stream';
import type { PageReadRecord, ScanEvent } from '../events.js';
import type { ExtractedPage } from '../extract/found-link.js';
import { HtmlLinkExtractor } from '../extract/html-links.js';
import { linkHeaderLinks } from '../extract/link-header.js';
import { bodyTimedOut, isMarkdownType, type PageFetch } from '../fetch/checker.js';
import { readHtml } from '../fetch/decode.js';
import type * as MarkdownModule from '../extract/markdown-links.js';
import { isDeadlineError, ScanStoppedError } from '../fetch/errors.js';
import { discard } from '../fetch/http-client.js';
import type { ScanTally } from '../scan-tally.js';
import type { CrawlContext } from './crawl-context.js';
import type { LinkLedger } from './link-ledger.js';
import { pageBase } from './resolve-link.js';
import type { StopControl } from './stop-control.js';
import type { Target } from './targets.js';
import { noStrings } from './compact-values.js';
import type { PageRenderer } from '../render/page-renderer.js';
import { mergeRendered } from '../render/rendered-links.js';
import type { ScriptBuiltSigns } from '../render/script-built.js';

export interface PageReaderDeps {
  context: CrawlContext;
  rules: QualityRules | undefined;
  ledger: LinkLedger;
  anchors: AnchorIndex;
  analysis: SiteAnalysis;
  tally: ScanTally;
  stop: StopControl;
  maxPageBytes: number;
  maxLinksPerPage: number;
  /** Emit each crawled page as read (`page-read`), for a resumed scan to take in unfetched. */
  checkpointPages: boolean;
  emit: (event: ScanEvent) => void;
  /** With rendering on: renders each crawled internal page and reads the rendered DOM too. */
  renderer?: PageRenderer | undefined;
  /** Without rendering: notes the pages that look built by script, for the report's hint. */
  scriptBuilt?: ScriptBuiltSigns | undefined;
}

/**
 * Reads HTML answers as they stream in: a crawled page is reported, its anchors and indexing
 * facts recorded and its links handed to the ledger; a page we only check gives its anchors.
 */
export class PageReader {
  constructor(private readonly deps: PageReaderDeps) {}

  /**
   * Reads an HTML answer: a crawled page's links, or only the anchors of a page we check. With
   * `recorded` (a page an interrupted run read, see recordedFetch) the page is taken as it was
   * read then, and nothing is parsed.
   */
  async read(
    target: Target,
    fetched: PageFetch,
    recorded?: PageReadRecord,
  ): Promise<Target | undefined> {
    const html = fetched.html;
    if (!html) return undefined;
    const claim = this.deps.ledger.claimPage(target, html.finalUrl);
    if (!claim.read) {
      // Another fetch reads this page: wait until its anchors are known, so the fragments of
      // links to this address are checked against them when it settles.
      target.sameAs = claim.readBy;
      this.deps.anchors.alias(target.id, claim.readBy.id);
      discard(html.response.body); // (read to its end, a small body keeps its connection)
      await claim.readBy.pageRead;
      return undefined;
    }
    const { finalAddress } = claim;
    let pageDone = () => {};
    target.pageRead = new Promise<void>((resolve) => (pageDone = resolve));
    try {
      // (The quality rules and the browser read HTML: a Markdown page has none to give them.)
      const readsHtml = !isMarkdownType(html.contentType);
      const rendering =
        target.crawl && target.internal && this.deps.renderer !== undefined && readsHtml;
      const keepText = target.crawl && (this.deps.rules !== undefined || rendering) && readsHtml;
      const extracted = recorded
        ? { page: recorded.page, bytes: recorded.bytes, text: undefined }
        : await this.extract(fetched, keepText);
      const { bytes } = extracted;
      let { page } = extracted;
      const source = extracted.text?.join('');
      // (Its body ran past the request deadline: the page is broken, Time Out.)
      if (fetched.check.state !== 'ok') {
        if (finalAddress) this.deps.ledger.settle(finalAddress, fetched.check);
        return undefined;
      }
      if (!fetched.check.warning && isNotFoundTitle(page.title))
        fetched.check = { ...fetched.check, warning: 'soft-404' };
      let consoleErrors: string[] | undefined;
      if (rendering && source !== undefined) {
        const rendered = await this.render(fetched, source, page);
        if (rendered) ({ page, consoleErrors } = rendered);
      } else if (target.crawl && target.internal) {
        this.deps.scriptBuilt?.observe(page, fetched.html!.finalUrl);
      }
      if (this.deps.context.settings.checkAnchors)
        this.deps.anchors.record(target.id, page.anchors);
      if (finalAddress) this.deps.anchors.alias(finalAddress.id, target.id);
      if (target.crawl) {
        const pageId = this.takeInPage(target, finalAddress, fetched, page, bytes);
        this.checkpoint(target, fetched, page, bytes);
        if (source !== undefined && this.deps.rules)
          await this.checkRules(fetched, source, bytes, pageId, consoleErrors);
      }
    } finally {
      pageDone();
      // Read: whoever asks later need not wait, and a million pages keep no promise each.
      target.pageRead = undefined;
    }
    return finalAddress;
  }

  /**
   * The page with what a browser adds to it (script-made links and ids, the requests it made),
   * and the errors its script logged; undefined when it could not be rendered.
   */
  private async render(
    fetched: PageFetch,
    source: string,
    page: ExtractedPage,
  ): Promise<{ page: ExtractedPage; consoleErrors: string[] } | undefined> {
    const { finalUrl, contentType } = fetched.html!;
    const rendered = await this.deps.renderer!.render(finalUrl, source, contentType);
    if (!rendered) return undefined;
    const { maxLinksPerPage } = this.deps;
    return {
      page: mergeRendered(page, rendered, finalUrl, maxLinksPerPage),
      consoleErrors: rendered.consoleErrors,
    };
  }

  /**
   * The page as read, for the scan's checkpoint. Not with quality rules: a resumed scan reads
   * such pages again for their text.
   */
  private checkpoint(target: Target, fetched: PageFetch, page: ExtractedPage, bytes: number) {
    if (!this.deps.checkpointPages || this.deps.rules || fetched.check.state !== 'ok') return;
    const { finalUrl, contentType, response } = fetched.html!;
    const xRobotsTag = header(response.headers['x-robots-tag']);
    this.deps.emit({
      type: 'page-read',
      record: {
        url: target.url,
        finalUrl,
        check: fetched.check,
        statusCode: response.statusCode,
        contentType,
        ...(xRobotsTag !== undefined ? { xRobotsTag } : {}),
        bytes,
        page,
      },
    });
  }

  /** Streams the page through the link extractor; keeps the text only when rules need it. */
  private async extract(
    fetched: PageFetch,
    keepText: boolean,
  ): Promise<{ page: ExtractedPage; bytes: number; text: string[] | undefined }> {
    const html = fetched.html!;
    const extractor = isMarkdownType(html.contentType)
      ? new (await markdownReader()).MarkdownLinkExtractor(this.deps.maxLinksPerPage)
      : new HtmlLinkExtractor(this.deps.maxLinksPerPage);
    const text: string[] | undefined = keepText ? [] : undefined;
    const headers = {
      contentType: html.contentType,
      contentEncoding: header(html.response.headers['content-encoding']),
    };
    // A body cut short still yields what arrived; only a stopped scan ends the page here.
    const { bytes, error } = await readHtml(
      html.response.body,
      headers,
      this.deps.maxPageBytes,
      (chunk) => {
        extractor.write(chunk);
        text?.push(chunk);
      },
    );
    if (error !== undefined && this.deps.stop.stopped) throw new ScanStoppedError();
    if (isDeadlineError(error)) fetched.check = bodyTimedOut(error, fetched.check);
    const page = extractor.end();
    // `Link:` headers first: the browser reads them before the body.
    const fromHeaders = linkHeaderLinks(html.response.headers.link, html.finalUrl);
    if (fromHeaders.length > 0) page.links = [...fromHeaders, ...page.links];
    return { page, bytes, text };
  }

  /** A crawled page: reported, its anchors and facts recorded, its links taken in. */
  private takeInPage(
    target: Target,
    finalAddress: Target | undefined,
    fetched: PageFetch,
    page: ExtractedPage,
    bytes: number,
  ): number {
    const html = fetched.html!;
    // The address's own string when the page did not move: every page's address is kept once.
    const finalUrl = html.finalUrl === target.url ? target.url : html.finalUrl;
    const pageId = this.deps.ledger.addPage(finalUrl);
    target.pageId = pageId;
    target.bytes = bytes;
    if (finalAddress) finalAddress.pageId = pageId;
    this.deps.tally.pages++;
    const statusCode = fetched.check.state === 'ok' ? fetched.check.statusCode : 0;
    this.deps.emit({
      type: 'page',
      url: target.url,
      finalUrl,
      statusCode,
      contentType: html.contentType,
      bytes,
      depth: target.depth,
      ...(page.title ? { title: page.title } : {}),
      linkCount: page.links.length,
    });
    const duplicates = this.deps.context.settings.checkAnchors
      ? findDuplicateAnchors(page.anchors)
      : [];
    for (const duplicate of duplicates) {
      this.deps.analysis.duplicateAnchors++;
      this.deps.emit({ type: 'duplicate-anchor', page: html.finalUrl, ...duplicate });
    }
    const baseUrl = resolveBase(page.baseHref, html.finalUrl);
    const base = pageBase(baseUrl, this.deps.context.scope);
    const resources = new Set<number>();
    const source = { pageId, targetId: target.id, depth: target.depth };
    for (const link of page.links) {
      const targetId = this.deps.ledger.takeIn(source, link, base);
      if (targetId !== undefined && isResourceKind(link.kind)) resources.add(targetId);
    }
    this.deps.analysis.recordPage(pageId, {
      url: finalUrl,
      targetId: target.id,
      htmlBytes: bytes,
      contentType: this.deps.ledger.strings.intern(html.contentType),
      statusCode,
      robotsMeta: page.robotsMeta.length > 0 ? page.robotsMeta : noStrings,
      xRobotsTag: header(html.response.headers['x-robots-tag']),
      canonical: absolute(page.canonicalHref, baseUrl),
      resources,
    });
    return pageId;
  }

  /**
   * The selected quality rules on the page's text, read in the same pass as its links. They run
   * on another thread and report their findings when done; the crawl waits here only when it
   * is too far ahead of them.
   */
  private async checkRules(
    fetched: PageFetch,
    html: string,
    bytes: number,
    pageId: number,
    consoleErrors: string[] | undefined,
  ): Promise<void> {
    const response = fetched.html!.response;
    await this.deps.rules!.checkPage({
      url: fetched.html!.finalUrl,
      statusCode: response.statusCode,
      headers: response.headers,
      contentType: fetched.html!.contentType,
      html,
      bytes,
      compressed: header(response.headers['content-encoding']) !== undefined,
      // Only the start page's redirects belong to it; for other pages, whether this fetch came
      // through a redirect depends on which link happened to be fetched first.
      redirects: pageId === 0 && fetched.check.state === 'ok' ? fetched.check.redirects : [],
      isStartPage: pageId === 0,
      ...(consoleErrors ? { facts: { consoleErrors } } : {}),
    });
  }
}

let markdownModule: Promise<typeof MarkdownModule> | undefined;

/** micromark and its GFM extensions (some 100 modules) load with the first Markdown page only. */
function markdownReader() {
  return (markdownModule ??= import('../extract/markdown-links.js'));
}

function resolveBase(baseHref: string | undefined, pageUrl: string): URL {
  const page = new URL(pageUrl);
  return (baseHref && absoluteUrl(baseHref, page)) || page;
}

function absoluteUrl(raw: string, base: URL): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

/** The absolute address without fragment, or undefined when it is not a URL. */
function absolute(raw: string | undefined, base: URL): string | undefined {
  if (!raw) return undefined;
  const url = absoluteUrl(raw, base);
  if (!url) return undefined;
  url.hash = '';
  return url.href;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A page an interrupted run read, as the answer its fetch would be (with an empty body). */
export function recordedFetch(record: PageReadRecord): PageFetch {
  return {
    check: record.check,
    html: {
      finalUrl: record.finalUrl,
      contentType: record.contentType,
      response: {
        url: record.finalUrl,
        method: 'GET',
        statusCode: record.statusCode,
        headers: record.xRobotsTag !== undefined ? { 'x-robots-tag': record.xRobotsTag } : {},
        body: Readable.from([]),
      },
    },
  };
}
