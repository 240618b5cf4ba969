import type { LinkCheck, LinkKind } from '../events.js';
import type { FoundLink } from '../extract/found-link.js';
import { linkCapCheck } from '../extract/page-link-cap.js';
import type { CrawlContext } from './crawl-context.js';
import {
  invalidUrlCheck,
  missingAttributeCheck,
  shorten,
  skippedCheck,
} from './immediate-checks.js';
import {
  emptyResolvedLink,
  resolveLink,
  urlOf,
  type PageBase,
  type ResolvedLink,
} from './resolve-link.js';

/** Links that lead a visitor to another page (and so a crawler too); a sitemap's entries too. */
const navigationalElements = new Set(['a', 'area', 'iframe', 'frame', 'meta', 'sitemap']);

/**
 * Decides what happens to each link found on a page: resolved against the page's base URL, then
 * the settings (schemes, toggles, exclusions, robots) in the order a user would expect. The
 * answer is left in the fields, overwritten by the next link (no object per link): either
 * `known` (the outcome is `check` already) or `fetch` (`link` names a URL to fetch).
 */
export class LinkIntake {
  outcome: 'known' | 'fetch' = 'known';
  /** The resolved link (for `fetch`, and for most `known` outcomes). */
  readonly link: ResolvedLink = emptyResolvedLink();
  /** `fetch`: navigational, in scope and within the depth limit: crawl it. */
  crawl = false;
  /** `fetch`: found on a link a visitor follows (a, area, iframe, frame, meta refresh). */
  navigational = false;
  /** `known`: what the link event names as target and URL, and the outcome. */
  target = '';
  url = '';
  internal = false;
  check: LinkCheck = skippedCheck('limit');

  /** Takes one link found on a page at `depth`; read the fields before the next one. */
  take(link: FoundLink, base: PageBase, depth: number, context: CrawlContext): this['outcome'] {
    if (link.linksNotRead)
      return this.known(link.raw, link.raw, false, linkCapCheck(link.linksNotRead));
    if (link.missing) {
      return this.known('', '', false, missingAttributeCheck(link.element, link.attribute));
    }
    const resolution = resolveLink(link.raw, base, context.scope, this.link);
    if (resolution === 'invalid') {
      const text = shorten(link.raw);
      return this.known(text, text, false, invalidUrlCheck(link.raw));
    }
    if (resolution === 'other-scheme') {
      const text = shorten(this.link.prefix);
      return this.known(text, text, false, skippedCheck('scheme'));
    }
    const { internal, pathname } = this.link;
    const skip = skipCause(link.kind, this.link, context);
    if (skip) return this.knownLink(skippedCheck(skip));

    const navigational = navigationalElements.has(link.element);
    const crawl =
      navigational &&
      depth + 1 <= context.settings.maxDepth &&
      context.scope.isCrawlablePath(internal, pathname);
    if (!context.settings.checkBrokenLinks && !crawl && !isImageKind(link.kind)) {
      return this.knownLink(skippedCheck('links-off'));
    }
    if (
      internal &&
      context.settings.respectRobotsTxt &&
      !context.robots.allowsAll &&
      !context.robots.isAllowed(urlOf(this.link))
    ) {
      return this.knownLink(skippedCheck('robots'));
    }
    this.crawl = crawl;
    this.navigational = navigational;
    return (this.outcome = 'fetch');
  }

  /** The resolved link's outcome is known without fetching it. */
  private knownLink(check: LinkCheck): 'known' {
    const url = urlOf(this.link);
    return this.known(url + this.link.fragment, url, this.link.internal, check);
  }

  private known(target: string, url: string, internal: boolean, check: LinkCheck): 'known' {
    this.target = target;
    this.url = url;
    this.internal = internal;
    this.check = check;
    return (this.outcome = 'known');
  }
}

function skipCause(kind: LinkKind, link: ResolvedLink, context: CrawlContext) {
  if (isImageKind(kind) && !context.settings.checkImages) return 'images-off' as const;
  if (kind === 'iframe' && !context.settings.checkIframes) return 'iframes-off' as const;
  if (context.exclusions.any && context.exclusions.matches(urlOf(link))) return 'excluded' as const;
  return undefined;
}

function isImageKind(kind: LinkKind): boolean {
  return kind === 'image' || kind === 'icon';
}
