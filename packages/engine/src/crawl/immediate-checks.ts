import { FailureReason } from '@linkaudit/core';
import type { LinkCheck, SkipCause } from '../events.js';

/** Outcomes known without a request, shared by every occurrence that gets them. */
const skipMessages: Record<SkipCause, string> = {
  excluded: 'Excluded by the scan settings',
  robots: "Not fetched: the site's robots.txt disallows it",
  scheme: 'Not an http(s) link; recorded, not fetched',
  'images-off': 'Not checked: image checking is off',
  'iframes-off': 'Not checked: iframe checking is off',
  'links-off': 'Not checked: link checking is off',
  limit: 'Not checked: the scan stopped before reaching it',
  // Their own checks say more (crawlerTrapCheck, linkCapCheck); these are the general words.
  'crawler-trap': 'Not followed: a crawler trap',
  'link-cap': 'Not checked: the page has more links than the scan reads per page',
};

const skipped = Object.fromEntries(
  Object.entries(skipMessages).map(([cause, message]) => [
    cause,
    { state: 'skipped', cause, message },
  ]),
) as Record<SkipCause, LinkCheck>;

export function skippedCheck(cause: SkipCause): LinkCheck {
  return skipped[cause];
}

export function missingAttributeCheck(element: string, attribute: string): LinkCheck {
  return {
    state: 'broken',
    reason: FailureReason.SourceAttributeMissing,
    message: `<${element}> has no ${attribute} (missing or empty)`,
    redirects: [],
  };
}

export function invalidUrlCheck(raw: string): LinkCheck {
  return {
    state: 'broken',
    reason: FailureReason.InvalidFormat,
    message: `Not a valid URL: ${shorten(raw)}`,
    redirects: [],
  };
}

export function engineExceptionCheck(error: unknown): LinkCheck {
  return {
    state: 'broken',
    reason: FailureReason.EngineException,
    message: `LinkAudit failed on this link: ${error instanceof Error ? error.message : String(error)}`,
    redirects: [],
  };
}

/** Long values (data: URIs) are cut so one link cannot bloat the results. */
export function shorten(text: string, length = 200): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
