import { isResourceKind, type SiteAnalysis } from '../analysis/site-analysis.js';
import type { LinkCheck } from '../events.js';
import { cssKind, forEachCssUrl } from '../extract/css-urls.js';
import type { FoundLink } from '../extract/found-link.js';
import { LineIndex } from '../extract/line-index.js';
import { PageLinkCap } from '../extract/page-link-cap.js';
import { bodyTimedOut, type LinkChecker } from '../fetch/checker.js';
import { readHtml } from '../fetch/decode.js';
import { isDeadlineError, ScanStoppedError } from '../fetch/errors.js';
import type { RetryPause } from '../fetch/retry-policy.js';
import type { CrawlContext } from './crawl-context.js';
import type { LinkLedger } from './link-ledger.js';
import { pageBase } from './resolve-link.js';
import type { StopControl } from './stop-control.js';
import type { Target } from './targets.js';

export interface StylesheetReaderDeps {
  context: CrawlContext;
  checker: LinkChecker;
  ledger: LinkLedger;
  analysis: SiteAnalysis;
  stop: StopControl;
  /** The most bytes of one stylesheet read (EngineOptions.maxPageBytes, at most 5 MB). */
  maxBytes: number;
  /** The most references of one stylesheet read (EngineOptions.maxLinksPerPage). */
  maxReferences: number;
}

/** A real stylesheet is under 1 MB; a larger one is read only this far (references and all). */
export const maxStylesheetBytes = 5 * 1024 * 1024;

/**
 * Reads an internal stylesheet the site links or imports: fetched once per scan (it is one target
 * of the ledger, however many pages use it), its `url()` and `@import` references taken in as
 * links whose source is the stylesheet, resolved against its own address, at their line and
 * column inside it. An `@import` leads to another stylesheet target, read the same way (the
 * ledger's seen index is the loop guard, maxImportNesting the depth cap). Its fonts and images
 * are recorded as its resources, which count in every page that uses it.
 */
export class StylesheetReader {
  constructor(private readonly deps: StylesheetReaderDeps) {}

  /** Fetches and reads the stylesheet; its check, to settle the target with. */
  async read(target: Target, pause?: RetryPause): Promise<LinkCheck> {
    const { checker, stop } = this.deps;
    const fetched = await checker.fetchStylesheet(target.url, pause);
    const css = fetched.html;
    if (!css) return fetched.check;
    const text: string[] = [];
    const read = await readHtml(
      css.response.body,
      {
        contentType: css.contentType,
        contentEncoding: header(css.response.headers['content-encoding']),
      },
      this.deps.maxBytes,
      (chunk) => text.push(chunk),
    );
    if (read.error !== undefined && stop.stopped) throw new ScanStoppedError();
    if (isDeadlineError(read.error)) return bodyTimedOut(read.error, fetched.check);
    target.bytes = read.bytes;
    this.takeInReferences(target, css.finalUrl, text.join(''));
    const check = fetched.check;
    // (Chunked or compressed: the bytes read are its size, for page weights.)
    if (check.state === 'ok' && check.size === undefined) return { ...check, size: read.bytes };
    return check;
  }

  private takeInReferences(target: Target, finalUrl: string, css: string): void {
    const { ledger, analysis, context } = this.deps;
    const sourceId = ledger.addStylesheet(finalUrl, target);
    const source = { pageId: sourceId, targetId: target.id, depth: target.depth };
    const base = pageBase(new URL(finalUrl), context.scope);
    const resources = new Set<number>();
    for (const link of this.references(css)) {
      const targetId = ledger.takeIn(source, link, base);
      if (targetId !== undefined && isResourceKind(link.kind)) resources.add(targetId);
    }
    if (resources.size > 0) analysis.recordStylesheet(target.id, resources);
  }

  /** The stylesheet's references as found links, up to the cap (the last marks what was not read). */
  private references(css: string): FoundLink[] {
    const lines = new LineIndex();
    lines.add(css);
    const cap = new PageLinkCap(this.deps.maxReferences);
    forEachCssUrl(css, (url, offset, isImport) => {
      // `url(#id)` names an element of the document using the stylesheet, not of the stylesheet.
      if (url.startsWith('#')) return;
      const { line, column } = lines.position(offset);
      cap.add({
        raw: url,
        element: 'css',
        attribute: isImport ? '@import' : 'url()',
        kind: cssKind(url, isImport),
        line,
        column,
      });
    });
    return cap.finish();
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
