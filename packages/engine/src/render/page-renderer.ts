import type { HttpClient } from '../fetch/http-client.js';
import { BrowserPool } from './browser-pool.js';
import { BrowserRequests, type PageRequest } from './browser-requests.js';
import type { PageSlot } from './page-slot.js';
import { locateChromium } from './chromium.js';
import { ResourceCache } from './resource-cache.js';

/** How pages are rendered (EngineOptions.render). */
export interface RenderConfig {
  /** The Chromium to use; default CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
  chromiumPath?: string;
  /** Pages rendered at once. Default 3. */
  pages?: number;
  /** The most one page may take, from loading to its links read (ms). Default 15 s. */
  pageDeadlineMs?: number;
  /** The browser's processes together; past it the browser is restarted (MB). Default 1024. */
  memoryCapMb?: number;
  /** Pages a browser renders before it is replaced. Default 500. */
  pagesPerBrowser?: number;
}

export const renderDefaults = {
  pages: 3,
  pageDeadlineMs: 15_000,
  memoryCapMb: 1024,
  pagesPerBrowser: 500,
  rendererHeapMb: 256,
  /** The page counts as done when no request has been under way for this long after load. */
  quietMs: 150,
  resourceCacheBytes: 48 * 1024 * 1024,
} as const;

/** What a browser saw of one page. */
export interface RenderedPage {
  /** The document as script left it (serialised DOM). */
  html: string;
  /** Every GET the page made, its own document excepted. */
  requests: PageRequest[];
  /** Errors the page's script wrote to the console or threw. */
  consoleErrors: string[];
}

/** Console messages that repeat what is reported as a broken resource anyway. */
const resourceFailure = /^Failed to load resource\b/;
/** How long reading the DOM may take (a page whose script loops never answers). */
const contentGraceMs = 3_000;
/** Each page's console errors kept at most (a page logging in a loop). */
const maxConsoleErrors = 20;

/**
 * Renders a scan's internal pages in Chromium: one browser context per page (no cookie or
 * storage passes from page to page), every request answered through the scan's HTTP client
 * (BrowserRequests), at most `pages` at once, each within its deadline.
 */
export class PageRenderer {
  private readonly pool: BrowserPool | undefined;
  private readonly cache = new ResourceCache(renderDefaults.resourceCacheBytes);
  private readonly deadlineMs: number;
  /** Why no page is rendered (no Chromium, or it would not start); undefined while rendering. */
  private missing: string | undefined;
  rendered = 0;
  failed = 0;

  constructor(
    private readonly client: HttpClient,
    userAgent: string,
    config: RenderConfig = {},
  ) {
    this.deadlineMs = config.pageDeadlineMs ?? renderDefaults.pageDeadlineMs;
    const chromium = locateChromium(config.chromiumPath);
    if (!chromium.found) {
      this.missing = chromium.reason;
      return;
    }
    this.pool = new BrowserPool({
      chromiumPath: chromium.path,
      size: config.pages ?? renderDefaults.pages,
      memoryCapBytes: (config.memoryCapMb ?? renderDefaults.memoryCapMb) * 1024 * 1024,
      rendererHeapMb: renderDefaults.rendererHeapMb,
      pagesPerBrowser: config.pagesPerBrowser ?? renderDefaults.pagesPerBrowser,
      userAgent,
    });
  }

  /** Why pages are not rendered, when they are not. */
  get unavailable(): string | undefined {
    return this.missing ?? this.pool?.unavailable;
  }

  get browserRestarts(): number {
    return this.pool?.restarts ?? 0;
  }

  /** The page as a browser shows it; undefined when it could not be rendered (read as HTML). */
  async render(url: string, html: string, contentType: string): Promise<RenderedPage | undefined> {
    if (!this.pool || this.unavailable) return undefined;
    const result = await this.pool.use((slot) => this.renderIn(slot, { url, html, contentType }));
    if (result) this.rendered++;
    else this.failed++;
    return result;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  /**
   * Loads the page in the tab (its document from the HTML already read), waits until it is quiet
   * or its deadline, and reads the DOM. A tab whose page would not give its DOM is not reused.
   */
  private async renderIn(
    slot: PageSlot,
    document: { url: string; html: string; contentType: string },
  ): Promise<RenderedPage | undefined> {
    const deadline = Date.now() + this.deadlineMs;
    const requests = new BrowserRequests(this.client, this.cache, document);
    const consoleErrors: string[] = [];
    slot.visit = {
      handle: (route) => requests.handle(route),
      noteError: (text) => {
        if (consoleErrors.length < maxConsoleErrors && !resourceFailure.test(text))
          consoleErrors.push(text);
      },
    };
    try {
      // A page that never finishes loading is still read as far as it got.
      await slot.page
        .goto(document.url, { waitUntil: 'load', timeout: this.deadlineMs })
        .catch(() => undefined);
      await requests.settled(renderDefaults.quietMs, deadline);
      const rendered = await withDeadline(slot.page.content(), Date.now() + contentGraceMs);
      if (rendered === undefined) slot.reusable = false;
      return rendered === undefined
        ? undefined
        : { html: rendered, requests: requests.requests, consoleErrors };
    } finally {
      slot.visit = undefined;
      requests.close();
    }
  }
}

/** The promise's value, or undefined once `deadline` (epoch ms) passes. */
async function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
