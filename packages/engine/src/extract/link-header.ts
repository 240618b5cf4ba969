import type { FoundLink, LinkKind } from './found-link.js';

/** What `as=` says a preloaded resource is. */
const preloadKinds: Record<string, LinkKind> = {
  style: 'stylesheet',
  script: 'script',
  image: 'image',
  font: 'other',
  fetch: 'other',
  document: 'page',
};
const preloadRelations = new Set(['preload', 'prefetch', 'modulepreload']);

/**
 * The links of a page's `Link:` response headers (RFC 8288) that a browser loads or a visitor
 * meets: stylesheets, preloads, icons and the canonical address. Each is resolved against the
 * page's address (a header knows no `<base href>`), and has no place in the body: line and
 * column are 0. Other relations (API endpoints, preconnect) are no links to check.
 */
export function linkHeaderLinks(
  header: string | string[] | undefined,
  pageUrl: string,
): FoundLink[] {
  if (header === undefined) return [];
  const links: FoundLink[] = [];
  for (const value of Array.isArray(header) ? header : [header]) {
    for (const { target, params } of parseLinkHeader(value)) {
      const kind = kindOf(params);
      if (!kind) continue;
      const resolved = URL.parse(target, pageUrl);
      links.push({
        raw: resolved ? resolved.href : target,
        element: 'header',
        attribute: 'Link',
        kind,
        line: 0,
        column: 0,
      });
    }
  }
  return links;
}

function kindOf(params: Map<string, string>): LinkKind | undefined {
  const relations = (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (relations.includes('stylesheet')) return 'stylesheet';
  if (relations.some((relation) => preloadRelations.has(relation))) {
    const as = (params.get('as') ?? '').toLowerCase();
    if (relations.includes('modulepreload')) return 'script';
    return preloadKinds[as] ?? 'other';
  }
  if (relations.includes('icon')) return 'icon';
  if (relations.includes('canonical')) return 'page';
  return undefined;
}

/**
 * `<uri>; name=value; name="quoted, value", <uri2>; …` as [{ target, params }]: commas inside
 * `<…>` or quotes do not split (RFC 8288 §3). Parameter names are lower-cased; the first of a
 * repeated parameter wins.
 */
export function parseLinkHeader(value: string): { target: string; params: Map<string, string> }[] {
  const entries: { target: string; params: Map<string, string> }[] = [];
  let at = 0;
  while (at < value.length) {
    const open = value.indexOf('<', at);
    if (open === -1) break;
    const close = value.indexOf('>', open + 1);
    if (close === -1) break;
    const target = value.slice(open + 1, close).trim();
    const params = new Map<string, string>();
    at = close + 1;
    // Parameters up to the next comma outside quotes.
    while (at < value.length && value[at] !== ',') {
      const match = /^\s*;\s*([^=;,\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,]*)))?/.exec(
        value.slice(at),
      );
      if (!match) {
        at++;
        continue;
      }
      const name = match[1]!.toLowerCase();
      const parameter = match[2]?.replace(/\\(.)/g, '$1') ?? match[3]?.trim() ?? '';
      if (!params.has(name)) params.set(name, parameter);
      at += match[0].length;
    }
    at++;
    entries.push({ target, params });
  }
  return entries;
}
