import type { FailureReason, ScanStatus } from '@linkaudit/core';

/** What a link points at, by the element that holds it. */
export type LinkKind =
  'page' | 'image' | 'script' | 'stylesheet' | 'iframe' | 'media' | 'object' | 'icon' | 'other';

/** One hop of a redirect chain: the address asked and the status it answered with. */
export interface RedirectHop {
  url: string;
  statusCode: number;
}

/** Why a link was not fetched. */
export type SkipCause =
  | 'excluded' // matched an exclusion (prefix, regex: or file type)
  | 'robots' // internal page disallowed by robots.txt
  | 'scheme' // mailto:, tel:, javascript:, data: and other non-HTTP schemes
  | 'images-off' // checkImages is off
  | 'iframes-off' // checkIframes is off
  | 'links-off' // checkBrokenLinks is off
  | 'limit'; // found after the scan stopped growing (link limit, error limit, timeout, cancel)

/** The closed outcome of checking one target URL. */
export type LinkCheck =
  | {
      state: 'ok';
      statusCode: number;
      finalUrl: string;
      redirects: RedirectHop[];
      contentType?: string;
      /** Bytes, from the download or Content-Length; undefined when the server did not say. */
      size?: number;
    }
  | {
      state: 'broken';
      reason: FailureReason;
      statusCode?: number;
      /** A sentence a person can act on: "404 Not Found", "certificate has expired", … */
      message: string;
      redirects: RedirectHop[];
      /** The low-level error code (ENOTFOUND, CERT_HAS_EXPIRED, …) when there was one. */
      errorCode?: string;
    }
  | {
      /** The server answered, but only to say it does not serve robots (bot protection). */
      state: 'unverified';
      cause: 'bot-protection';
      statusCode: number;
      message: string;
      redirects: RedirectHop[];
    }
  | { state: 'skipped'; cause: SkipCause; message: string };

/** A crawled page (an in-scope URL fetched with GET and parsed as HTML). */
export interface PageEvent {
  type: 'page';
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  /** Bytes of the HTML as downloaded (after decompression). */
  bytes: number;
  /** 1 for the start page. */
  depth: number;
  title?: string;
  /** Links found on the page (every occurrence). */
  linkCount: number;
}

/** One occurrence of a link on a page, with the outcome of checking its target. */
export interface LinkEvent {
  type: 'link';
  /** The page the link is on (its final URL after redirects). */
  source: string;
  /** The absolute URL with its fragment; empty when the attribute was missing or empty. */
  target: string;
  /** The URL that was checked: the target without its fragment. */
  url: string;
  element: string;
  attribute: string;
  line: number;
  column: number;
  kind: LinkKind;
  /** Same site as the start URL (www. and scheme ignored). */
  internal: boolean;
  check: LinkCheck;
}

export interface ProgressEvent {
  type: 'progress';
  /** Unique URLs waiting to be fetched. */
  queued: number;
  /** Unique URLs fetched and settled. */
  processed: number;
  pages: number;
  /** Link occurrences found so far. */
  links: number;
  /** Unique broken URLs so far. */
  broken: number;
  elapsedMs: number;
}

export type StopCause = 'link-limit' | 'error-limit' | 'timeout' | 'cancelled' | 'error';

export interface ScanSummary {
  startUrl: string;
  pages: number;
  /** Unique URLs checked (fetched). */
  uniqueLinks: number;
  /** Link occurrences found on all pages. */
  totalLinks: number;
  /** Link occurrences whose target is broken. */
  brokenLinks: number;
  uniqueBrokenLinks: number;
  uniqueUnverifiedLinks: number;
  /** Unique broken URLs per failure reason. */
  reasons: Partial<Record<FailureReason, number>>;
  durationMs: number;
}

export interface DoneEvent {
  type: 'done';
  /** Complete (1), Cancelled (2), Failed (3), Timeout (4) or OverMaxLinks (10). */
  status: ScanStatus;
  stoppedBy?: StopCause;
  /** Why the scan failed (status 3), e.g. the start page could not be fetched. */
  error?: string;
  summary: ScanSummary;
}

/**
 * Everything a scan reports, in the order it happens. Anchors, TLS details, rules and site
 * analysis (page rank, inclusion, sizes) join this union in later issues.
 */
export type ScanEvent = PageEvent | LinkEvent | ProgressEvent | DoneEvent;
