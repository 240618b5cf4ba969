import type { Route } from 'playwright-core';
import { decompress } from '../fetch/decode.js';
import { closeBody, discard, type HttpClient } from '../fetch/http-client.js';
import type { ResourceCache, FetchedResource } from './resource-cache.js';

/** A request a rendered page made (not its own document): GET, http(s). */
export interface PageRequest {
  url: string;
  /** Playwright's resource type: script, image, font, stylesheet, fetch, xhr, media, … */
  resourceType: string;
}

/**
 * Requests whose bytes cannot change what script makes of the page: they are not downloaded for
 * the browser but answered empty at once (the crawl checks each of them like any link, so a
 * missing image is still found). Saves the site a download and the render its wait.
 */
const notDownloaded = new Set(['image', 'font', 'media']);

/** The largest answer handed to the browser; past it the request fails in the page. */
const maxResourceBytes = 10 * 1024 * 1024;

/** Headers the browser must not see again: the body handed over is whole and decoded. */
const droppedHeaders = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/**
 * Every request of one rendered page, answered by the scan's own HTTP client: so the address
 * policy (private networks refused, DNS rebinding caught at connect time), the test resolver and
 * the user agent are the crawler's, and the browser itself never opens a connection. The page's
 * own document is answered from the HTML the crawl already read. Only GET is sent: a crawler
 * submits nothing, so a page's POST (a form, an analytics beacon) fails in the page.
 */
export class BrowserRequests {
  readonly requests: PageRequest[] = [];
  private inFlight = 0;
  private lastActivity = Date.now();
  private closed = false;

  constructor(
    private readonly client: HttpClient,
    private readonly cache: ResourceCache,
    private readonly document: { url: string; html: string; contentType: string },
  ) {}

  async handle(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    if (!url.startsWith('http:') && !url.startsWith('https:'))
      return route.abort('blockedbyclient').catch(() => undefined);
    if (request.method() !== 'GET') return route.abort('blockedbyclient').catch(() => undefined);
    if (request.isNavigationRequest() && request.frame().parentFrame() === null) {
      if (sameDocument(url, this.document.url)) return this.fulfillDocument(route);
    }
    this.requests.push({ url, resourceType: request.resourceType() });
    if (notDownloaded.has(request.resourceType()))
      return route.fulfill({ status: 200, body: '' }).catch(() => undefined);
    this.inFlight++;
    try {
      const answer = await this.cache.get(url, request.resourceType(), () => this.fetch(url));
      if (this.closed) return;
      if (answer === 'failed') await route.abort('failed');
      else await route.fulfill(answer);
    } catch {
      // (the page was closed meanwhile)
    } finally {
      this.inFlight--;
      this.lastActivity = Date.now();
    }
  }

  /** Resolves once no request has been under way for `quietMs`, or at `deadline` (epoch ms). */
  async settled(quietMs: number, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      if (this.inFlight === 0 && Date.now() - this.lastActivity >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs, 50)));
    }
  }

  /** No answer is handed to the browser after this (its context is closing). */
  close(): void {
    this.closed = true;
  }

  private fulfillDocument(route: Route): Promise<void> {
    return route
      .fulfill({
        status: 200,
        contentType: this.document.contentType || 'text/html',
        body: this.document.html,
      })
      .catch(() => undefined);
  }

  /** One GET through the scan's client, redirects followed; 'failed' when no answer came. */
  private async fetch(url: string): Promise<FetchedResource | 'failed'> {
    try {
      const result = await this.client.follow(url, 'GET');
      if (!result.ok) return 'failed';
      const { response } = result;
      const encoding = header(response.headers['content-encoding']);
      const body = await readAll(decompress(response.body, encoding), maxResourceBytes);
      if (body === undefined) {
        discard(response.body);
        return 'failed';
      }
      return { status: response.statusCode, headers: browserHeaders(response.headers), body };
    } catch {
      return 'failed';
    }
  }
}

/** The page's address with and without a fragment is the same document. */
function sameDocument(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function browserHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || droppedHeaders.has(name)) continue;
    result[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return result;
}

/** A body read whole, or undefined past `maxBytes` or when it broke off. */
function readAll(
  stream: NodeJS.ReadableStream & { destroy?: () => void },
  maxBytes: number,
): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        closeBody(stream as never);
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', () => resolve(undefined));
  });
}
