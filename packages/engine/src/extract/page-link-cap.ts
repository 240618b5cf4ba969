import type { LinkCheck } from '../events.js';
import type { FoundLink } from './found-link.js';

/**
 * A page's links up to a cap on link occurrences (EngineOptions.maxLinksPerPage). A hostile or
 * broken page with a million links would otherwise hold a million found links, then a million
 * link events, in one scan: memory grows with the page, not the site. Links past the cap are
 * counted while the page is read and dropped at once; the first of them stays, marked with the
 * count, as the page's one finding (a skipped link, see crawl/link-intake.ts), so a report says
 * where reading stopped and how much was left.
 */
export class PageLinkCap {
  readonly links: FoundLink[] = [];
  private firstUnread: FoundLink | undefined;
  private unread = 0;

  constructor(private readonly max: number) {}

  add(link: FoundLink): void {
    if (this.links.length < this.max) this.links.push(link);
    else if (this.unread++ === 0) this.firstUnread = link;
  }

  /** The links read, then (past the cap) the marker naming the first link not read. */
  finish(): FoundLink[] {
    if (this.firstUnread) {
      this.links.push({ ...this.firstUnread, linksNotRead: this.unread });
      this.firstUnread = undefined;
    }
    return this.links;
  }
}

/** The finding of a page whose links ran past the cap: one skipped link, where reading stopped. */
export function linkCapCheck(linksNotRead: number): LinkCheck {
  const more = linksNotRead - 1;
  return {
    state: 'skipped',
    cause: 'link-cap',
    message:
      'Not checked: the page has more links than the scan reads per page; this one and the ' +
      `${more.toLocaleString('en-US')} after it were not read`,
  };
}
