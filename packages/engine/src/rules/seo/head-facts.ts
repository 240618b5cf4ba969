// The head elements several SEO rules read, found once per page.
import { isInSvg, metaNamed, tokens } from '../dom.js';
import type { PageElement, ParsedPage } from '../page.js';

/** The document's `<title>`: the first one outside inline SVG. */
export function documentTitle(page: ParsedPage): PageElement | undefined {
  return page.all('title').find((title) => !isInSvg(title));
}

export function metaDescription(page: ParsedPage): PageElement | undefined {
  return metaNamed(page.all('meta'), 'description')[0];
}

export function canonicalLinks(page: ParsedPage): PageElement[] {
  return page.all('link').filter((link) => tokens(link, 'rel').includes('canonical'));
}

/**
 * True when the page names another address as its canonical one: it is an alternate (a sorted
 * or tracked variant), so sharing a title or description with the original is intended.
 */
export function declaresOtherCanonical(page: ParsedPage): boolean {
  const href = canonicalLinks(page)[0]?.attribs.href;
  const canonical = href ? page.resolve(href) : undefined;
  const own = page.url;
  if (!canonical || !own) return false;
  canonical.hash = '';
  return canonical.href !== own.href.split('#')[0];
}
