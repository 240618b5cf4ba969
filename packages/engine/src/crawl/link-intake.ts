import type { ScanSettings } from '@linkaudit/core';
import type { LinkCheck, LinkKind } from '../events.js';
import type { FoundLink } from '../extract/found-link.js';
import type { ExclusionMatcher } from './exclusions.js';
import {
  invalidUrlCheck,
  missingAttributeCheck,
  shorten,
  skippedCheck,
} from './immediate-checks.js';
import type { RobotsRules } from './robots.js';
import { resolveLink, type PageBase, type ResolvedLink } from './resolve-link.js';
import type { SiteScope } from './site-scope.js';

/** A found link, resolved: either its outcome is known now, or it names a URL to fetch. */
export type IntakeResult =
  | { type: 'known'; target: string; url: string; internal: boolean; check: LinkCheck }
  | {
      type: 'fetch';
      link: ResolvedLink;
      /** Navigational, in scope and within the depth limit: crawl it. */
      crawl: boolean;
      /** Found on a link a visitor follows (a, area, iframe, frame, meta refresh). */
      navigational: boolean;
    };

/** Links that lead a visitor to another page (and so a crawler too). */
const navigationalElements = new Set(['a', 'area', 'iframe', 'frame', 'meta']);

export interface IntakeContext {
  settings: ScanSettings;
  scope: SiteScope;
  exclusions: ExclusionMatcher;
  robots: RobotsRules;
  maxDepth: number;
}

/**
 * Decides what happens to one link found on a page at `depth`: resolved against the page's base
 * URL, then the settings (schemes, toggles, exclusions, robots) in the order a user would expect.
 */
export function takeLink(
  link: FoundLink,
  base: PageBase,
  depth: number,
  context: IntakeContext,
): IntakeResult {
  if (link.missing) {
    return known('', '', false, missingAttributeCheck(link.element, link.attribute));
  }
  const resolution = resolveLink(link.raw, base, context.scope);
  if (resolution.type === 'invalid') {
    return known(shorten(link.raw), shorten(link.raw), false, invalidUrlCheck(link.raw));
  }
  if (resolution.type === 'other-scheme') {
    const text = shorten(resolution.href);
    return known(text, text, false, skippedCheck('scheme'));
  }
  const { url, fragment, internal, pathname } = resolution;
  const skip = skipCause(link.kind, url, context);
  if (skip) return known(url + fragment, url, internal, skippedCheck(skip));

  const navigational = navigationalElements.has(link.element);
  const crawl =
    navigational &&
    depth + 1 <= context.maxDepth &&
    context.scope.isCrawlablePath(internal, pathname);
  if (!context.settings.checkBrokenLinks && !crawl && !isImageKind(link.kind)) {
    return known(url + fragment, url, internal, skippedCheck('links-off'));
  }
  if (internal && context.settings.respectRobotsTxt && !context.robots.isAllowed(url)) {
    return known(url + fragment, url, internal, skippedCheck('robots'));
  }
  return { type: 'fetch', link: resolution, crawl, navigational };
}

function skipCause(kind: LinkKind, url: string, context: IntakeContext) {
  if (isImageKind(kind) && !context.settings.checkImages) return 'images-off' as const;
  if (kind === 'iframe' && !context.settings.checkIframes) return 'iframes-off' as const;
  if (context.exclusions.matches(url)) return 'excluded' as const;
  return undefined;
}

function isImageKind(kind: LinkKind): boolean {
  return kind === 'image' || kind === 'icon';
}

function known(target: string, url: string, internal: boolean, check: LinkCheck): IntakeResult {
  return { type: 'known', target, url, internal, check };
}
