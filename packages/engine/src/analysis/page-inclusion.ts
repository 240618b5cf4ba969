/** What is known about one crawled page that decides whether it may be indexed. */
export interface IndexingFacts {
  statusCode: number;
  robotsMeta: string[];
  xRobotsTag: string | undefined;
  /** The canonical address, absolute, without fragment; undefined when the page names none. */
  canonical: string | undefined;
  /** The page's own final address, without fragment. */
  url: string;
  allowedByRobotsTxt: boolean;
}

/**
 * Whether search engines may index the page, and every reason they may not: an answer other
 * than 200, noindex in a robots meta tag or X-Robots-Tag header, robots.txt, or a canonical
 * address pointing elsewhere. A redirect makes the *linked* address non-indexable, not the page.
 */
export function indexability(facts: IndexingFacts): {
  indexable: boolean;
  notIndexableBecause: string[];
} {
  const reasons: string[] = [];
  if (facts.statusCode !== 200) reasons.push('status');
  if (facts.robotsMeta.some(saysNoindex)) reasons.push('noindex-meta');
  if (facts.xRobotsTag && saysNoindex(facts.xRobotsTag)) reasons.push('noindex-header');
  if (!facts.allowedByRobotsTxt) reasons.push('robots-txt');
  if (facts.canonical !== undefined && !sameAddress(facts.canonical, facts.url))
    reasons.push('canonical-elsewhere');
  return { indexable: reasons.length === 0, notIndexableBecause: reasons };
}

/** `noindex` or `none`, also in the `googlebot: noindex` form of X-Robots-Tag. */
function saysNoindex(directives: string): boolean {
  return directives
    .toLowerCase()
    .split(/[,\s]+/)
    .some((token) => token === 'noindex' || token === 'none' || token.endsWith(':noindex'));
}

function sameAddress(a: string, b: string): boolean {
  try {
    const first = new URL(a);
    const second = new URL(b);
    first.hash = '';
    second.hash = '';
    return first.href === second.href;
  } catch {
    return false;
  }
}
