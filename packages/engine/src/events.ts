import type { FailureReason, ScanSummary, StopCause, Suggestion } from '@linkaudit/core';
import type { ExtractedPage, LinkKind } from './extract/found-link.js';

export type { LinkKind };

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
  | 'limit' // found after the scan stopped growing (link limit, error limit, timeout, cancel)
  | 'crawler-trap' // a URL of a shape that makes new URLs without end (crawl/crawler-traps.ts)
  | 'link-cap'; // past the page's cap on links read (EngineOptions.maxLinksPerPage)

/**
 * Why a link is Unverified: bot protection (challenge pages, 999, robots refused), a rate limit
 * past our patience (a Retry-After longer than we wait, or 429 to the end), a sign-in the link
 * needs (401), or a host that used up its time budget.
 */
export type UnverifiedCause = 'bot-protection' | 'rate-limited' | 'needs-sign-in' | 'host-too-slow';

/** What an OK answer may still hide: a soft 404 or a login wall. */
export type OkWarning = 'soft-404' | 'login-wall';

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
      /**
       * It answered, but perhaps not with what the link means (issue 35): a soft 404 (a "not
       * found" page answered 200, or a deep link redirected to the home page) or a login wall (a
       * redirect to a sign-in page). A warning, never a failure.
       */
      warning?: OkWarning;
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
      /**
       * Neither OK nor Broken: the host would not let us check (issue 35). The link may well
       * work for a visitor; `cause` says why we could not tell.
       */
      state: 'unverified';
      cause: UnverifiedCause;
      /** The last answer's status; absent when no request was sent (host paused or over budget). */
      statusCode?: number;
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
  /** With checkAnchors: whether the fragment names an element of the target page. */
  anchor?: AnchorCheck;
  /**
   * The link is only in the page as a browser rendered it (script made it, or the page requested
   * it: element is then the request's type, attribute `request`); line and column are 0.
   */
  rendered?: true;
}

/** found: the page has the id or a[name]; missing: it does not; unverifiable: not an HTML page we could read. */
export interface AnchorCheck {
  fragment: string;
  state: 'found' | 'missing' | 'unverifiable';
}

export interface SourcePosition {
  line: number;
  column: number;
}

/** The same id (or a[name]) twice on one page; reported once per extra occurrence. */
export interface DuplicateAnchorEvent {
  type: 'duplicate-anchor';
  page: string;
  name: string;
  first: SourcePosition;
  duplicate: SourcePosition;
}

/** The TLS certificate of one https host, inspected once per scan. */
export interface CertificateEvent {
  type: 'certificate';
  host: string;
  /** Verified, trusted, valid now and for this host name. */
  valid: boolean;
  /** Why it is not valid: expired, not-yet-valid, self-signed, untrusted, wrong-host, or other. */
  problem?: 'expired' | 'not-yet-valid' | 'self-signed' | 'untrusted' | 'wrong-host' | 'other';
  errorCode?: string;
  message: string;
  subject?: string;
  issuer?: string;
  validFrom?: string;
  validTo?: string;
  /** Whole days until it expires (negative once expired). */
  daysLeft?: number;
  /** Valid but expires within 30 days. */
  expiresSoon: boolean;
}

/** Bytes of one crawled page: its HTML plus every resource it references (each once). */
export interface PageSizeEvent {
  type: 'page-size';
  page: string;
  htmlBytes: number;
  totalBytes: number;
  /** Per content type (HTML included), bytes and number of resources. */
  contents: Array<{ contentType: string; totalSize: number; count: number }>;
  /** Resources whose size could not be learned (no Content-Length and not downloaded). */
  unknownSizes: number;
}

/** PageRank of a crawled page over the internal link graph (damping 0.85). */
export interface PageRankEvent {
  type: 'page-rank';
  page: string;
  /** Raw PageRank; all pages sum to 1. */
  rank: number;
  /** 0–10, linear in rank relative to the best page (which gets 10), one decimal. */
  score: number;
}

/** Whether a page can be in a search engine's index, and what the site itself says about it. */
export interface PageInclusionEvent {
  type: 'page-inclusion';
  page: string;
  statusCode?: number;
  /** Internal link occurrences pointing to it from other pages. */
  inboundLinks: number;
  /** Up to 20 pages that link to it. */
  inboundSources: string[];
  indexable: boolean;
  /** Why it is not indexable: 'status', 'redirect', 'noindex-meta', 'noindex-header', 'robots-txt', 'canonical-elsewhere'. */
  notIndexableBecause: string[];
  canonical?: string;
  inSitemap: boolean;
  /** In the sitemap but linked from no crawled page. */
  orphan: boolean;
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

/** A quality-rule violation on a page (only rules in settings.selectedRules run). */
export interface RuleViolationEvent {
  type: 'rule';
  ruleId: number;
  ruleName: string;
  /** 1 Web performance, 2 Spellcheck, 3 Valid HTML, 4 SEO, 5 User Experience. */
  categoryID: number;
  url: string;
  line: number;
  column: number;
  /** The offending source, at most 120 characters. */
  snippet: string;
  message?: string;
}

export type {
  FileTypeTotal,
  RuleCategoryTally,
  ScanSummary,
  SitemapSummary,
  StopCause,
} from '@linkaudit/core';

export interface DoneEvent {
  type: 'done';
  /** What stopped the scan early; absent when it completed. (Its status code: core's endingStatus.) */
  stoppedBy?: StopCause;
  /** Why the scan failed, e.g. the start page could not be fetched. */
  error?: string;
  summary: ScanSummary;
}

/**
 * Everything a scan reports, in the order it happens: pages and links as they are checked,
 * certificates as hosts are inspected, then the site analysis (sizes, rank, inclusion), then
 * done. Rule violations come as each page is read, site-level ones (duplicates) at the end.
 */
/**
 * A crawled page as read, for a scan's checkpoint (EngineOptions.checkpointPages): a scan resumed
 * with it (ScanResume.pages) takes the page in from here instead of fetching and parsing it
 * again. Plain data. Not emitted when quality rules run (they need the page's text).
 */
/**
 * A suggested fix for the links to `url` (issue 27), worked out after the crawl: for every link to
 * it, or with `fragment`, for the links to that #fragment only (a closest anchor).
 */
export interface SuggestionEvent {
  type: 'suggestion';
  /** The URL checked (no fragment), as the link events' `url`. */
  url: string;
  /** The #fragment (as the link's anchor.fragment) when the fix is for that fragment only. */
  fragment?: string;
  suggestion: Suggestion;
}

/**
 * The scan moved on to the work after the crawl (issue 34): `rule-checking` once every page is
 * read (site-wide rules, suggested fixes), `finalizing` for the site analysis (sizes, rank,
 * inclusion). The server shows them as SPEC's statuses 9 and 11.
 */
export interface PhaseEvent {
  type: 'phase';
  phase: 'rule-checking' | 'finalizing';
}

export interface PageReadEvent {
  type: 'page-read';
  record: PageReadRecord;
}

export interface PageReadRecord {
  /** The address fetched (the target's URL). */
  url: string;
  finalUrl: string;
  /** The fetch's outcome: OK, with the redirects that led to finalUrl. */
  check: LinkCheck;
  statusCode: number;
  contentType: string;
  /** X-Robots-Tag, when the answer had one (page inclusion reads it). */
  xRobotsTag?: string;
  /** Bytes of the HTML as downloaded (after decompression). */
  bytes: number;
  page: ExtractedPage;
}

export type ScanEvent =
  | PageEvent
  | PageReadEvent
  | LinkEvent
  | DuplicateAnchorEvent
  | CertificateEvent
  | PageSizeEvent
  | PageRankEvent
  | PageInclusionEvent
  | RuleViolationEvent
  | SuggestionEvent
  | PhaseEvent
  | ProgressEvent
  | DoneEvent;
