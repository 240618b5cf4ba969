// The truth of a served site, derived from its files alone, to judge our engine by. Nothing here
// comes from the engine: pages are parsed by parse5 (the WHATWG tree builder browsers implement,
// not the engine's htmlparser2), addresses are resolved by WHATWG `new URL` against the
// document's base URL (<base href> respected), fragments are matched as the HTML standard's
// "find a potential indicated element" does, and the site answers through the same nginx rules
// that serve it (static-site.mjs), asked directly rather than over HTTP.
//
// It crawls as a visitor following every link would: from the start page, breadth first, every
// navigational link (a, area, iframe, frame, meta refresh) to a page of the site (in the start
// page's folder for a folder scan, within maxDepth) is followed; every link of every page read is
// checked. What a link is, and what counts as broken, is the product's definition (DESIGN §3,
// SPEC §8): a missing or empty required attribute (img src, iframe src…) is Source Attribute
// Missing; an `a href=""` is a link to the page itself (WHATWG); an unparseable address is Invalid
// Format; an HTTP error status maps to its reason. Links to other hosts are not this corpus's
// business (the network is closed): they are expected as skipped ('excluded').
//
// Stylesheets (issue 35): an internal stylesheet a page links (`<link rel=stylesheet>`) or
// imports (`@import` in a <style> or in another stylesheet) that answers 200 as text/css is read
// once for the whole site; each of its url() and @import references is one link, resolved against
// the stylesheet's own address (a fragment-only url(#id) names an element of the page, no link).
import { parse } from 'parse5';
import { answerFor } from './static-site.mjs';

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const navigational = new Set(['a', 'area', 'iframe', 'frame', 'meta']);
const htmlTypes = new Set(['text/html', 'application/xhtml+xml']);

/** SPEC §8's reason for an HTTP error status. */
export function reasonForStatus(status) {
  if (status === 401 || status === 403 || status === 407) return 'Authentication Required';
  if (status === 404 || status === 410) return 'Not Found';
  if ([429, 502, 503, 504].includes(status)) return 'Service Unavailable';
  if (status >= 500) return 'Internal Server Error';
  return 'Bad Request';
}

/**
 * Crawls `files` as served at `origin` from `start` (a path). Options: folderScope (scan depth 2:
 * only pages under the start page's folder are crawled), maxDepth (the start page is depth 1).
 */
export function deriveTruth(files, { origin, start, folderScope = false, maxDepth = Infinity }) {
  const site = new ServedSite(files, origin);
  const startUrl = new URL(start, origin);
  const first = site.answer(startUrl.href);
  const folder = new URL('.', first.finalUrl).pathname;
  const inScope = (url) =>
    url.origin === origin && (!folderScope || url.pathname.startsWith(folder));

  const pages = new Map(); // final URL → { depth, anchors }
  const outcomes = new Map(); // key → { url, state, detail, referenceCount }
  const missingFragments = new Map(); // key → { source, url, fragment, referenceCount }
  let totalLinks = 0;
  const stylesheetsRead = new Set();
  /** A stylesheet's references as links, then the stylesheets it imports (read once each). */
  const readStylesheet = (url, nesting) => {
    const answer = site.answer(url);
    if (answer.status !== 200 || !answer.css || stylesheetsRead.has(answer.finalUrl)) return;
    if (nesting > 8) return; // (the engine's maxImportNesting)
    stylesheetsRead.add(answer.finalUrl);
    const css = new TextDecoder('utf-8').decode(site.files.read(answer.file));
    for (const { url: raw, isImport } of cssUrls(css)) {
      if (raw.startsWith('#')) continue;
      totalLinks++;
      const outcome = linkOutcome({ raw, base: answer.finalUrl }, site, origin);
      count(outcomes, `${outcome.url}\n${outcome.state}\n${outcome.detail}`, outcome);
      if (isImport && outcome.state === 'ok' && outcome.resolved.origin === origin)
        readStylesheet(outcome.url, nesting + 1);
    }
  };
  const queue = [{ url: startUrl.href, depth: 1 }];
  const queued = new Set([startUrl.href]);

  for (let index = 0; index < queue.length; index++) {
    const { url, depth } = queue[index];
    const answer = site.answer(url);
    if (answer.status !== 200 || !answer.html || pages.has(answer.finalUrl)) continue;
    const page = site.page(answer.finalUrl);
    pages.set(answer.finalUrl, depth);
    for (const link of page.links) {
      totalLinks++;
      const outcome = linkOutcome(link, site, origin);
      count(outcomes, `${outcome.url}\n${outcome.state}\n${outcome.detail}`, outcome);
      if (!outcome.resolved) continue;
      const target = outcome.resolved;
      if (link.stylesheet && outcome.state === 'ok' && target.origin === origin)
        readStylesheet(outcome.url, 1);
      if (outcome.state === 'ok' && target.hash.length > 1) {
        const targetAnswer = site.answer(outcome.url);
        if (targetAnswer.html && !indicatesElement(site.page(targetAnswer.finalUrl), target.hash)) {
          count(missingFragments, `${answer.finalUrl}\n${outcome.url}\n${target.hash}`, {
            source: answer.finalUrl,
            url: outcome.url,
            fragment: target.hash,
          });
        }
      }
      const crawl = navigational.has(link.element) && inScope(target) && depth + 1 <= maxDepth;
      if (crawl && outcome.state === 'ok' && !queued.has(outcome.url)) {
        queued.add(outcome.url);
        queue.push({ url: outcome.url, depth: depth + 1 });
      }
    }
  }

  const sorted = (map, keyOf) => [...map.values()].sort((a, b) => compare(keyOf(a), keyOf(b)));
  const allOutcomes = sorted(outcomes, (o) => `${o.url}\n${o.state}\n${o.detail}`);
  const broken = allOutcomes
    .filter((o) => o.state === 'broken')
    .map(({ url, detail, statusCode, referenceCount }) => ({
      url,
      reason: detail,
      statusCode,
      referenceCount,
    }));
  return {
    startUrl: first.finalUrl,
    pages: [...pages.keys()].sort(compare),
    outcomes: allOutcomes.map(({ url, state, detail, referenceCount }) => ({
      url,
      state,
      detail,
      referenceCount,
    })),
    broken,
    missingFragments: sorted(missingFragments, (f) => `${f.source}\n${f.url}\n${f.fragment}`),
    totalLinks,
    brokenLinks: broken.reduce((sum, entry) => sum + entry.referenceCount, 0),
    brokenFragments: [...missingFragments.values()].reduce((s, f) => s + f.referenceCount, 0),
  };
}

function count(map, key, entry) {
  const existing = map.get(key);
  if (existing) existing.referenceCount++;
  else map.set(key, { ...entry, referenceCount: 1 });
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One link's outcome: { url, state, detail, statusCode?, resolved? (a URL, for http links) }. */
function linkOutcome(link, site, origin) {
  if (link.missing) return { url: '', state: 'broken', detail: 'Source Attribute Missing' };
  let resolved;
  try {
    resolved = new URL(link.raw, link.base);
  } catch {
    return { url: link.raw, state: 'broken', detail: 'Invalid Format' };
  }
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') {
    const text = resolved.href.length > 200 ? `${resolved.href.slice(0, 200)}…` : resolved.href;
    return { url: text, state: 'skipped', detail: 'scheme' };
  }
  // Without its fragment: `#` alone is an empty fragment, not part of the address (hash is '').
  const hashAt = resolved.href.indexOf('#');
  let url = hashAt === -1 ? resolved.href : resolved.href.slice(0, hashAt);
  // An empty query is no query (docs/decisions.md, issue 19): `?` alone is the page itself.
  if (url.endsWith('?')) url = url.slice(0, -1);
  if (resolved.origin !== origin) return { url, state: 'skipped', detail: 'excluded', resolved };
  const answer = site.answer(url);
  if (answer.status === 200) return { url, state: 'ok', detail: 200, resolved };
  const reason = answer.status === 'redirect-loop' ? 'Bad Request' : reasonForStatus(answer.status);
  return { url, state: 'broken', detail: reason, statusCode: answer.status, resolved };
}

/** The site as a client sees it: answers (redirects followed) and parsed pages, each once. */
export class ServedSite {
  constructor(files, origin) {
    this.files = files;
    this.origin = origin;
    this.answers = new Map();
    this.pages = new Map();
  }

  /** { status, finalUrl, html } after following redirects (10 at most, as the engine). */
  answer(url) {
    let known = this.answers.get(url);
    if (known) return known;
    let current = new URL(url);
    for (let hop = 0; hop <= 10; hop++) {
      const answer = answerFor(this.files, current.pathname + current.search);
      if (answer.status === 301) {
        current = new URL(answer.location, current);
        continue;
      }
      known = {
        status: answer.status,
        finalUrl: current.href,
        html: answer.status === 200 && htmlTypes.has(answer.contentType),
        css: answer.status === 200 && answer.contentType === 'text/css',
        file: answer.file,
      };
      break;
    }
    known ??= { status: 'redirect-loop', finalUrl: current.href, html: false };
    this.answers.set(url, known);
    return known;
  }

  /** The links, ids and a[name]s of the HTML page served at `finalUrl`. */
  page(finalUrl) {
    let page = this.pages.get(finalUrl);
    if (!page) {
      const answer = this.answer(finalUrl);
      page = readPage(decodeHtml(this.files.read(answer.file)), finalUrl);
      this.pages.set(finalUrl, page);
    }
    return page;
  }
}

/** The HTML standard's encoding sniffing, reduced to what a server without charset leaves: BOM, then a <meta> charset in the first 1024 bytes, else UTF-8. */
function decodeHtml(bytes) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes);
  }
  const head = bytes.subarray(0, 1024).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  let label = match?.[1] ?? 'utf-8';
  // The HTML standard: a meta charset naming UTF-16 means UTF-8 (the bytes were ASCII-compatible).
  if (/^utf-?16/i.test(label)) label = 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Walks the parse5 tree: { links: [{ element, raw, base, missing? }], ids, names }. */
function readPage(text, pageUrl) {
  const document = parse(text, { scriptingEnabled: false });
  const elements = [];
  const walk = (node) => {
    if (node.tagName) elements.push(node);
    // <template> contents are inert: never rendered, never followed (node.content is not walked).
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(document);

  // The document base URL: the first <base> with an href, parsed against the page's URL.
  let base = pageUrl;
  const baseElement = elements.find(
    (e) => e.tagName === 'base' && e.namespaceURI === HTML_NS && has(e, 'href'),
  );
  if (baseElement) {
    try {
      base = new URL(attribute(baseElement, 'href'), pageUrl).href;
    } catch {
      // an invalid base href leaves the document's own address as its base
    }
  }

  const ids = new Set();
  const names = new Set();
  const links = [];
  const add = (element, raw, missing = false, stylesheet = false) =>
    links.push(missing ? { element, missing: true } : { element, raw, base, stylesheet });
  for (const element of elements) {
    const id = attribute(element, 'id');
    if (id) ids.add(id);
    if (element.namespaceURI !== HTML_NS) {
      // SVG's <a>: href, or the older xlink:href, as browsers follow them.
      const href =
        attribute(element, 'href') ??
        element.attrs.find((a) => a.name === 'href' && a.prefix === 'xlink')?.value;
      if (element.tagName === 'a' && href !== undefined) add('a', href.trim());
      continue;
    }
    if (element.tagName === 'a' && attribute(element, 'name'))
      names.add(attribute(element, 'name'));
    elementLinks(element, add);
    const style = attribute(element, 'style');
    if (style) for (const { url } of cssUrls(style)) add('style', url);
    if (element.tagName === 'style') {
      const css = element.childNodes.map((child) => child.value ?? '').join('');
      for (const { url, isImport } of cssUrls(css)) add('style', url, false, isImport);
    }
  }
  return { links, ids, names };
}

function has(element, name) {
  return element.attrs.some((a) => a.name === name && !a.prefix);
}

function attribute(element, name) {
  return element.attrs.find((a) => a.name === name && !a.prefix)?.value;
}

/** The links an element holds (DESIGN §3's list), by the HTML standard's attributes. */
function elementLinks(element, add) {
  const name = element.tagName;
  const value = (attributeName) => (attribute(element, attributeName) ?? '').trim();
  // A required attribute: absent or empty, it is Source Attribute Missing.
  const required = (attributeName) => {
    const raw = value(attributeName);
    add(name, raw, raw === '');
  };
  const optional = (attributeName) => {
    if (has(element, attributeName)) add(name, value(attributeName));
  };
  switch (name) {
    case 'a':
    case 'area':
      optional('href'); // href="" is the page itself (WHATWG URL parsing), not a missing target
      break;
    case 'link': {
      const relations = value('rel').toLowerCase().split(/\s+/).filter(Boolean);
      const originsOnly = ['preconnect', 'dns-prefetch'];
      if (relations.length > 0 && relations.every((r) => originsOnly.includes(r))) break;
      const raw = value('href');
      add(name, raw, raw === '', relations.includes('stylesheet'));
      break;
    }
    case 'script':
      optional('src');
      break;
    case 'img': {
      const candidates = srcsetUrls(value('srcset'));
      for (const url of candidates) add(name, url);
      if (value('src') !== '' || candidates.length === 0) required('src');
      break;
    }
    case 'input':
      if (value('type').toLowerCase() === 'image') optional('src');
      break;
    case 'source': {
      const inPicture = element.parentNode?.tagName === 'picture';
      if (inPicture && !has(element, 'src')) {
        const candidates = srcsetUrls(value('srcset'));
        for (const url of candidates) add(name, url);
        if (candidates.length === 0) add(name, '', true);
      } else required('src');
      break;
    }
    case 'track':
    case 'embed':
      required('src');
      break;
    case 'iframe':
    case 'frame':
      if (has(element, 'src') || !has(element, 'srcdoc')) required('src');
      break;
    case 'video':
    case 'audio':
      optional('src');
      optional('poster');
      break;
    case 'object':
      optional('data');
      break;
    case 'meta':
      if (value('http-equiv').toLowerCase() === 'refresh') {
        const target = refreshUrl(attribute(element, 'content') ?? '');
        if (target) add(name, target);
      }
      break;
  }
}

/** The URL of a meta refresh, by the HTML standard's "shared declarative refresh steps". */
function refreshUrl(content) {
  const match =
    /^[\t\n\f\r ]*[\d.]*[\t\n\f\r ]*[;,]?[\t\n\f\r ]*(?:url[\t\n\f\r ]*=[\t\n\f\r ]*)?(.*)$/is.exec(
      content,
    );
  let rest = match?.[1] ?? '';
  if (rest.startsWith('"') || rest.startsWith("'")) {
    const end = rest.indexOf(rest[0], 1);
    rest = end === -1 ? rest.slice(1) : rest.slice(1, end);
  }
  return rest.trim();
}

/** The image candidate URLs of a srcset (the HTML standard's parser, descriptors skipped). */
function srcsetUrls(srcset) {
  const urls = [];
  let position = 0;
  const whitespaceOrComma = /[\t\n\f\r ,]/;
  while (position < srcset.length) {
    while (position < srcset.length && whitespaceOrComma.test(srcset[position])) position++;
    if (position >= srcset.length) break;
    const start = position;
    while (position < srcset.length && !/[\t\n\f\r ]/.test(srcset[position])) position++;
    let url = srcset.slice(start, position);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      // Skip the descriptors: up to the next comma outside parentheses.
      let depth = 0;
      while (position < srcset.length) {
        const character = srcset[position];
        if (character === '(') depth++;
        else if (character === ')') depth = Math.max(0, depth - 1);
        else if (character === ',' && depth === 0) break;
        position++;
      }
    }
    if (url) urls.push(url);
  }
  return urls;
}

/** url() and @import addresses of CSS text (comments removed first): [{ url, isImport }]. */
function cssUrls(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const urls = [];
  const pattern =
    /(@import\s+)?url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;
  for (const match of text.matchAll(pattern)) {
    const url = (match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? '').trim();
    if (url)
      urls.push({
        url,
        isImport: match[1] !== undefined || match[5] !== undefined || match[6] !== undefined,
      });
  }
  return urls;
}

/**
 * The HTML standard's "indicated part of the document" for a URL's hash: an element whose id is
 * the fragment, or an <a name> of it; then the same with the fragment percent-decoded (leniently:
 * a % not followed by two hex digits stays) and UTF-8 decoded; `top` in any case, and an empty
 * fragment, name the top of the document. A fragment directive (`:~:text=`) is not part of it.
 */
export function indicatesElement(page, hash) {
  let fragment = hash.slice(1);
  const directive = fragment.indexOf(':~:');
  if (directive !== -1) fragment = fragment.slice(0, directive);
  if (fragment === '') return true;
  const names = (candidate) => page.ids.has(candidate) || page.names.has(candidate);
  if (names(fragment)) return true;
  const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(percentDecode(fragment));
  if (names(decoded)) return true;
  return decoded.toLowerCase() === 'top';
}

/** WHATWG URL's percent-decode: bytes, with %XX decoded and every other byte as it is. */
function percentDecode(text) {
  const bytes = Buffer.from(text, 'utf8');
  const out = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0);
    if (bytes[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i]);
  }
  return Uint8Array.from(out);
}
