import { FailureReason, ScanStatus } from '@linkaudit/core';
import type { DoneEvent, LinkCheck, LinkEvent, ScanSummary } from '@linkaudit/engine';
import { ReportCollector, type ScanReport } from '../report.js';

const site = 'https://shop.example.com';

/** A link event as the engine reports it; `url` is the target without its fragment. */
export function linkEvent(
  source: string,
  target: string,
  at: { element?: string; attribute?: string; line: number; column: number },
  check: LinkCheck,
): LinkEvent {
  const element = at.element ?? 'a';
  return {
    type: 'link',
    source,
    target,
    url: target.split('#')[0] ?? '',
    element,
    attribute: at.attribute ?? (element === 'a' ? 'href' : 'src'),
    line: at.line,
    column: at.column,
    kind: element === 'img' ? 'image' : 'page',
    internal: target.startsWith(site),
    check,
  };
}

const ok: LinkCheck = { state: 'ok', statusCode: 200, finalUrl: '', redirects: [] };
const notFound: LinkCheck = {
  state: 'broken',
  reason: FailureReason.NotFound,
  statusCode: 404,
  message: '404 Not Found',
  redirects: [],
};

/**
 * A small shop scanned from its home page: two pages, a 404 linked from both, a 410 behind a
 * redirect, a CDN answering 503, a host that does not resolve, an image without src, a search
 * link with & and , in it, and a social network that refuses robots.
 */
export const shopEvents: LinkEvent[] = [
  linkEvent(`${site}/`, `${site}/about`, { line: 10, column: 5 }, ok),
  linkEvent(`${site}/`, `${site}/old-page`, { line: 12, column: 7 }, notFound),
  linkEvent(
    `${site}/`,
    'https://cdn.example.net/logo.png',
    { element: 'img', line: 8, column: 3 },
    {
      state: 'broken',
      reason: FailureReason.ServiceUnavailable,
      statusCode: 503,
      message: '503 Service Unavailable',
      redirects: [],
    },
  ),
  linkEvent(
    `${site}/`,
    'https://www.linkedin.com/company/shop',
    { line: 40, column: 9 },
    {
      state: 'unverified',
      cause: 'bot-protection',
      statusCode: 999,
      message: '999 Request denied',
      redirects: [],
    },
  ),
  linkEvent(
    `${site}/`,
    '',
    { element: 'img', line: 20, column: 3 },
    {
      state: 'broken',
      reason: FailureReason.SourceAttributeMissing,
      message: 'The src attribute is missing or empty',
      redirects: [],
    },
  ),
  linkEvent(`${site}/`, `${site}/contact#form`, { line: 11, column: 5 }, ok),
  linkEvent(`${site}/about`, `${site}/`, { line: 4, column: 1 }, ok),
  linkEvent(`${site}/about`, `${site}/old-page`, { line: 5, column: 1 }, notFound),
  linkEvent(
    `${site}/about`,
    'https://gone.example.org/',
    { line: 6, column: 1 },
    {
      state: 'broken',
      reason: FailureReason.InvalidRemoteName,
      message: 'DNS lookup failed for gone.example.org (ENOTFOUND)',
      redirects: [],
      errorCode: 'ENOTFOUND',
    },
  ),
  linkEvent(
    `${site}/about`,
    `${site}/moved`,
    { line: 7, column: 1 },
    {
      state: 'broken',
      reason: FailureReason.NotFound,
      statusCode: 410,
      message: '410 Gone',
      redirects: [{ url: `${site}/moved`, statusCode: 301 }],
    },
  ),
  linkEvent(
    `${site}/about`,
    `${site}/search?q=shoes&sort=price,asc`,
    { line: 9, column: 3 },
    {
      state: 'broken',
      reason: FailureReason.InternalServerError,
      statusCode: 500,
      message: '500 Internal Server Error',
      redirects: [],
    },
  ),
  linkEvent(
    `${site}/about`,
    'mailto:shop@example.com',
    { line: 12, column: 1 },
    {
      state: 'skipped',
      cause: 'scheme',
      message: 'mailto: links are not checked',
    },
  ),
];

export const shopSummary: ScanSummary = {
  startUrl: `${site}/`,
  pages: 2,
  uniqueLinks: 10,
  totalLinks: 12,
  brokenLinks: 7,
  uniqueBrokenLinks: 6,
  uniqueUnverifiedLinks: 1,
  reasons: {
    [FailureReason.NotFound]: 2,
    [FailureReason.ServiceUnavailable]: 1,
    [FailureReason.SourceAttributeMissing]: 1,
    [FailureReason.InvalidRemoteName]: 1,
    [FailureReason.InternalServerError]: 1,
  },
  durationMs: 4321,
};

/** The report of a list of link events (through the real collector) and a done event. */
export function reportOf(events: readonly LinkEvent[], done: Partial<DoneEvent> = {}): ScanReport {
  const collector = new ReportCollector();
  for (const event of events) collector.add(event);
  return collector.finish({
    type: 'done',
    status: ScanStatus.Complete,
    summary: shopSummary,
    ...done,
  });
}

export const shopReport = reportOf(shopEvents);

/** The start page did not answer: no pages, no links. */
export const failedReport = reportOf([], {
  status: ScanStatus.Failed,
  stoppedBy: 'error',
  error: 'The start page could not be fetched: connect ECONNREFUSED 127.0.0.1:9',
  summary: {
    startUrl: 'http://127.0.0.1:9/',
    pages: 0,
    uniqueLinks: 0,
    totalLinks: 0,
    brokenLinks: 0,
    uniqueBrokenLinks: 0,
    uniqueUnverifiedLinks: 0,
    reasons: {},
    durationMs: 12,
  },
});
