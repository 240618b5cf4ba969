import type { LookupFunction } from 'node:net';
import type { LinkCheck, PageReadRecord } from './events.js';
import type { ResultCache } from './crawl/result-cache.js';
import type { AddressPolicy } from './fetch/address-policy.js';
import type { RenderConfig } from './render/page-renderer.js';

/** How the engine runs, as opposed to what it scans (CrawlSettings). */
export interface EngineOptions {
  /** Stops the scan (status Cancelled) within a second. */
  signal?: AbortSignal;
  userAgent?: string;
  /** Per request: connecting, waiting for headers, and between body chunks. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Per request, overall: connecting, headers and body together, not reset by data arriving (a
   * server trickling a byte at a time never trips requestTimeoutMs). When it passes the link is
   * broken with "Time Out". Default 120 s.
   */
  requestDeadlineMs?: number;
  /**
   * Extra requests a URL may make after its first: retries after a timeout (one at most), a 5xx
   * or 429 answer or a dropped connection, and the GET after a refused HEAD. Default 2.
   */
  retries?: number;
  /** First retry delay; doubles each time, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /**
   * Our patience with a host that asks us to wait (429, or 503 with Retry-After): the longest a
   * URL waits for its host's pauses in all. A longer Retry-After leaves the links Unverified
   * (rate-limited), not Broken. Default 60 s.
   */
  maxRetryAfterMs?: number;
  /** Redirect hops followed before a chain counts as too long. Default 20, as browsers follow. */
  maxRedirects?: number;
  /** Largest HTML page (decompressed) we parse; the rest is not read. Default 20 MiB. */
  maxPageBytes?: number;
  /**
   * Link occurrences read from one page; beyond it the page's other links are not read, and one
   * skipped link says so (extract/page-link-cap.ts). Default 100,000.
   */
  maxLinksPerPage?: number;
  /**
   * Concurrent requests to one external host (the scanned site may use all of maxThreadCount).
   * Default 8. It halves when the host answers 429 and grows back by one at a time (AIMD).
   */
  perHostConcurrency?: number;
  /**
   * The time an external host may have requests under way, in all (counted once however many
   * run at once). Past it no more requests go to it and its remaining links are Unverified
   * ("host too slow"), so one slow or hostile host cannot hold the scan. Default 5 minutes.
   */
  hostTimeBudgetMs?: number;
  /**
   * Which link occurrences become `link` events. 'all' (default): every one. 'problems': all but
   * those whose target answered OK with no warning (and whose #fragment, when anchors are
   * checked, was found):
   * those are only counted, in summary.totalLinks. For consumers that report problems only (the
   * CLI): on most sites nearly every link is fine, and each event is an object to build and drop.
   */
  linkEvents?: 'all' | 'problems';
  /** How often progress events are emitted. Default 250 ms. */
  progressIntervalMs?: number;
  /** Replaces DNS resolution (tests map names to 127.0.0.1; the server refuses private addresses). */
  lookup?: LookupFunction;
  /**
   * Which addresses may be connected to, checked on the resolved address at connect time and
   * on IP literals before every request (the hosted service refuses private networks).
   */
  addressPolicy?: AddressPolicy;
  /** Extra trusted certificate authorities (PEM), e.g. a private CA in tests. */
  ca?: string | string[];
  /**
   * What an interrupted run of the same scan already checked (crash recovery): those URLs are
   * answered from here, not fetched again. Plain data, so it crosses to a scan's own process.
   */
  resume?: ScanResume;
  /**
   * Emit a `page-read` event per crawled page, the page as read (its links, anchors and facts),
   * so a resumed scan need not fetch it again. Off by default (the CLI never resumes).
   */
  checkpointPages?: boolean;
  /**
   * Work out a suggested fix per problem link after the crawl (suggestion events, issue 27).
   * Off by default: the pass may fetch a few pages again (link texts, anchor ids, https twins).
   */
  suggestions?: boolean;
  /** Pages the suggestion pass may fetch again at most. Default 40. */
  suggestionFetches?: number;
  /**
   * The suggestion pass's whole time in milliseconds (default 10 s): fixes not worked out by
   * then are left out, so slow or silent hosts never hold a scan's end for long.
   */
  suggestionDeadlineMs?: number;
  /**
   * Each phase after the crawl (suggestions, page sizes, page rank, page inclusion) may work this
   * long (ms; time spent waiting for a slow consumer of events not counted); past it, it stops
   * with what it has and the summary's `cutShort` names it. Default 5 minutes.
   */
  phaseTimeMs?: number;
  /** How pages are rendered when the settings ask for it (renderPages): browser, pool, caps. */
  render?: RenderConfig;
  /**
   * A folder standing for the site (issue 38, file-site.ts): addresses under `rootUrl` are
   * answered from `folder`, and every address in `pages` is crawled beside the start page
   * (every page file of the folder, linked or not). Plain data, like the rest.
   */
  localFolder?: LocalFolder;
  /**
   * Results of external URLs kept between runs (the CLI's --cache): a fresh one answers its URL
   * without a request; fetched results worth keeping are handed to it (crawl/result-cache.ts).
   */
  resultCache?: ResultCache;
}

export interface LocalFolder {
  /** The live address the folder is, ending in "/". */
  rootUrl: string;
  /** The folder, absolute. */
  folder: string;
  /** Addresses of the site crawled besides the start page (each once). */
  pages?: string[];
}

/**
 * The checkpoint a scan resumes from: every URL an earlier run of it checked, with its check.
 * A URL listed here is settled with its check as soon as a link names it, without a request,
 * unless the crawl must read what it answers: an HTML page to crawl (its links) or one whose
 * anchors are checked is fetched again.
 */
export interface ScanResume {
  checked: Array<{ url: string; check: LinkCheck }>;
  /**
   * Pages the earlier run read (its `page-read` events): taken in from here, not fetched, when
   * the crawl reaches them. Not used when quality rules run (they need the page's text).
   */
  pages?: PageReadRecord[];
}

export const engineDefaults = {
  // A browser's user agent (docs/decisions.md, issue 35): sites answer robots 403 or a challenge
  // page, and a link checker asks what a visitor's browser will get. Our name stays in it.
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 LinkAudit/1.0',
  requestTimeoutMs: 30_000,
  requestDeadlineMs: 120_000,
  retries: 2,
  retryBaseDelayMs: 500,
  maxRetryAfterMs: 60_000,
  maxRedirects: 20,
  maxPageBytes: 20 * 1024 * 1024,
  maxLinksPerPage: 100_000,
  perHostConcurrency: 8,
  hostTimeBudgetMs: 300_000,
  linkEvents: 'all',
  progressIntervalMs: 250,
  suggestionFetches: 40,
  suggestionDeadlineMs: 10_000,
  phaseTimeMs: 300_000,
} as const;
