import type { ExtractedPage, FoundLink, LinkKind, PageAnchor } from '../extract/found-link.js';
import { HtmlLinkExtractor } from '../extract/html-links.js';
import type { PageRequest } from './browser-requests.js';
import type { RenderedPage } from './page-renderer.js';

/**
 * What rendering adds to a page read from its HTML: the links of the rendered DOM that the HTML
 * did not have (script made them), the ids script added, and the requests the page made that no
 * link names (fetch/XHR, script-made images, fonts, lazy chunks). Added links carry
 * `rendered: true` and no place in the source (line 0): they are in no file.
 */
export function mergeRendered(
  page: ExtractedPage,
  rendered: RenderedPage,
  pageUrl: string,
  maxLinks: number,
): ExtractedPage {
  const extractor = new HtmlLinkExtractor(maxLinks);
  extractor.write(rendered.html);
  const dom = extractor.end();
  const links = [...page.links, ...renderOnlyLinks(page.links, dom.links)];
  links.push(...requestLinks(rendered.requests, links, dom.baseHref ?? page.baseHref, pageUrl));
  return {
    ...page,
    links: links.slice(0, Math.max(maxLinks, page.links.length)),
    anchors: [...page.anchors, ...renderOnlyAnchors(page.anchors, dom.anchors)],
  };
}

/** DOM links beyond those of the HTML, counted per element, attribute and value. */
function renderOnlyLinks(original: FoundLink[], dom: FoundLink[]): FoundLink[] {
  const remaining = countBy(original, linkKey);
  const added: FoundLink[] = [];
  for (const link of dom) {
    const key = linkKey(link);
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else if (!link.linksNotRead) added.push({ ...link, line: 0, column: 0, rendered: true });
  }
  return added;
}

function renderOnlyAnchors(original: PageAnchor[], dom: PageAnchor[]): PageAnchor[] {
  const remaining = countBy(original, (anchor) => anchor.name);
  const added: PageAnchor[] = [];
  for (const anchor of dom) {
    const left = remaining.get(anchor.name) ?? 0;
    if (left > 0) remaining.set(anchor.name, left - 1);
    else added.push({ name: anchor.name, line: 0, column: 0 });
  }
  return added;
}

/** Requests to addresses no link of the page names, once each, as links of the page. */
function requestLinks(
  requests: PageRequest[],
  links: FoundLink[],
  baseHref: string | undefined,
  pageUrl: string,
): FoundLink[] {
  const base = absolute(baseHref ?? '', pageUrl) ?? pageUrl;
  const named = new Set<string>();
  for (const link of links) {
    const url = absolute(link.raw, base);
    if (url) named.add(url);
  }
  const added: FoundLink[] = [];
  for (const request of requests) {
    const url = absolute(request.url, pageUrl);
    if (!url || named.has(url)) continue;
    named.add(url);
    added.push({
      raw: request.url,
      element: request.resourceType,
      attribute: 'request',
      kind: requestKind(request.resourceType),
      line: 0,
      column: 0,
      rendered: true,
    });
  }
  return added;
}

function requestKind(resourceType: string): LinkKind {
  switch (resourceType) {
    case 'image':
      return 'image';
    case 'script':
      return 'script';
    case 'stylesheet':
      return 'stylesheet';
    case 'media':
      return 'media';
    default:
      return 'other';
  }
}

function linkKey(link: FoundLink): string {
  return `${link.element} ${link.attribute} ${link.raw}`;
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** The absolute address without its fragment, or undefined. */
function absolute(raw: string, base: string): string | undefined {
  try {
    const url = new URL(raw, base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}
