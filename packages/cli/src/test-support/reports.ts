import { FailureReason, ScanStatus } from '@linkaudit/core';
import type {
  AnchorCheck,
  LinkCheck,
  LinkEvent,
  RuleViolationEvent,
  ScanEvent,
  ScanSummary,
} from '@linkaudit/engine';
import {
  ReportCollector,
  type FinishedScan,
  type ReportChecks,
  type ScanReport,
} from '../report.js';
import { loadRuleCatalogue } from '../rules.js';

// Reports with rule results describe their rules from the catalogue, as the CLI loads it.
await loadRuleCatalogue();

const site = 'https://shop.example.com';

/** A link event as the engine reports it; `url` is the target without its fragment. */
export function linkEvent(
  source: string,
  target: string,
  at: { element?: string; attribute?: string; line: number; column: number },
  check: LinkCheck,
  anchor?: AnchorCheck,
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
    ...(anchor ? { anchor } : {}),
  };
}

/** What a scan without any of the issue-4 findings reports for them. */
const nothingFound = {
  brokenAnchors: 0,
  duplicateAnchors: 0,
  fattestPages: 0,
  pageSizeBuckets: [0, 0, 0, 0, 0, 0],
  fileTypes: [],
  certificateProblems: 0,
};

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
  ...nothingFound,
};

/**
 * The report of a list of events (through the real collector) and a done event; a status given
 * stands as it is (a report of that status, whatever ending would map to it).
 */
export function reportOf(
  events: readonly ScanEvent[],
  done: Partial<FinishedScan> = {},
  checks: Partial<ReportChecks> = {},
): ScanReport {
  const collector = new ReportCollector(checks);
  for (const event of events) collector.add(event);
  const report = collector.finish({ type: 'done', summary: shopSummary, ...done });
  return done.status === undefined ? report : { ...report, done: { ...report.done, ...done } };
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
    ...nothingFound,
  },
});

/**
 * The same shop scanned with --anchors --page-rank --page-inclusion, nothing broken but: links to
 * two missing anchors (one of them from two pages), a link into a PDF whose anchor cannot be
 * verified, two duplicate ids, an expired certificate and one expiring in 10 days, two pages over
 * 2 MiB, a sitemap with an orphan, a non-indexable page and a 404.
 */
export const auditEvents: ScanEvent[] = [
  linkEvent(`${site}/`, `${site}/about#team`, { line: 14, column: 5 }, ok, {
    fragment: '#team',
    state: 'missing',
  }),
  linkEvent(`${site}/`, `${site}/about#history`, { line: 15, column: 5 }, ok, {
    fragment: '#history',
    state: 'found',
  }),
  linkEvent(`${site}/blog`, `${site}/about#team`, { line: 3, column: 1 }, ok, {
    fragment: '#team',
    state: 'missing',
  }),
  linkEvent(`${site}/about`, `${site}/#contact`, { line: 9, column: 1 }, ok, {
    fragment: '#contact',
    state: 'missing',
  }),
  linkEvent(`${site}/about`, `${site}/terms.pdf#page=2`, { line: 8, column: 1 }, ok, {
    fragment: '#page=2',
    state: 'unverifiable',
  }),
  {
    type: 'duplicate-anchor',
    page: `${site}/about`,
    name: 'main',
    first: { line: 12, column: 3 },
    duplicate: { line: 40, column: 3 },
  },
  {
    type: 'duplicate-anchor',
    page: `${site}/`,
    name: 'nav',
    first: { line: 5, column: 1 },
    duplicate: { line: 30, column: 1 },
  },
  {
    type: 'certificate',
    host: 'shop.example.com',
    valid: true,
    message: 'The certificate is valid',
    subject: 'shop.example.com',
    issuer: 'R11',
    validFrom: '2025-03-01T00:00:00.000Z',
    validTo: '2025-09-01T00:00:00.000Z',
    daysLeft: 82,
    expiresSoon: false,
  },
  {
    type: 'certificate',
    host: 'old.example.org',
    valid: false,
    problem: 'expired',
    errorCode: 'CERT_HAS_EXPIRED',
    message: 'The certificate has expired',
    subject: 'old.example.org',
    issuer: 'R3',
    validFrom: '2023-11-02T00:00:00.000Z',
    validTo: '2024-01-31T23:59:59.000Z',
    daysLeft: -497,
    expiresSoon: false,
  },
  {
    type: 'certificate',
    host: 'cdn.example.net',
    valid: true,
    message: 'The certificate expires in 10 days (2025-06-21)',
    subject: '*.example.net',
    issuer: 'R10',
    validFrom: '2025-03-23T00:00:00.000Z',
    validTo: '2025-06-21T12:00:00.000Z',
    daysLeft: 10,
    expiresSoon: true,
  },
  {
    type: 'page-size',
    page: `${site}/`,
    htmlBytes: 50_000,
    totalBytes: 2_500_000,
    contents: [
      { contentType: 'image/jpeg', totalSize: 2_450_000, count: 3 },
      { contentType: 'text/html', totalSize: 50_000, count: 1 },
    ],
    unknownSizes: 0,
  },
  {
    type: 'page-size',
    page: `${site}/about`,
    htmlBytes: 12_000,
    totalBytes: 20_000,
    contents: [
      { contentType: 'text/html', totalSize: 12_000, count: 1 },
      { contentType: 'text/css', totalSize: 8_000, count: 1 },
    ],
    unknownSizes: 0,
  },
  {
    type: 'page-size',
    page: `${site}/blog`,
    htmlBytes: 10_000,
    totalBytes: 5_300_000,
    contents: [
      { contentType: 'image/jpeg', totalSize: 5_150_000, count: 1 },
      { contentType: 'text/html', totalSize: 10_000, count: 1 },
      { contentType: 'video/mp4', totalSize: 0, count: 1 },
    ],
    unknownSizes: 1,
  },
  {
    type: 'page-size',
    page: `${site}/contact`,
    htmlBytes: 8_000,
    totalBytes: 16_000,
    contents: [
      { contentType: 'text/html', totalSize: 8_000, count: 1 },
      { contentType: 'text/css', totalSize: 8_000, count: 1 },
    ],
    unknownSizes: 0,
  },
  { type: 'page-rank', page: `${site}/blog`, rank: 0.15, score: 3.8 },
  { type: 'page-rank', page: `${site}/`, rank: 0.4, score: 10 },
  { type: 'page-rank', page: `${site}/about`, rank: 0.2, score: 5 },
  { type: 'page-rank', page: `${site}/contact`, rank: 0.25, score: 6.3 },
  {
    type: 'page-inclusion',
    page: `${site}/`,
    statusCode: 200,
    inboundLinks: 3,
    inboundSources: [`${site}/about`, `${site}/blog`, `${site}/contact`],
    indexable: true,
    notIndexableBecause: [],
    inSitemap: true,
    orphan: false,
  },
  {
    type: 'page-inclusion',
    page: `${site}/about`,
    statusCode: 200,
    inboundLinks: 1,
    inboundSources: [`${site}/`],
    indexable: false,
    notIndexableBecause: ['noindex-meta', 'canonical-elsewhere'],
    canonical: `${site}/`,
    inSitemap: true,
    orphan: false,
  },
  {
    type: 'page-inclusion',
    page: `${site}/blog`,
    statusCode: 200,
    inboundLinks: 0,
    inboundSources: [],
    indexable: true,
    notIndexableBecause: [],
    inSitemap: true,
    orphan: true,
  },
  {
    type: 'page-inclusion',
    page: `${site}/contact`,
    statusCode: 200,
    inboundLinks: 2,
    inboundSources: [`${site}/`, `${site}/about`],
    indexable: true,
    notIndexableBecause: [],
    inSitemap: false,
    orphan: false,
  },
  {
    type: 'page-inclusion',
    page: `${site}/gone`,
    statusCode: 404,
    inboundLinks: 0,
    inboundSources: [],
    indexable: false,
    notIndexableBecause: ['status'],
    inSitemap: true,
    orphan: false,
  },
];

export const auditSummary: ScanSummary = {
  startUrl: `${site}/`,
  pages: 4,
  uniqueLinks: 4,
  totalLinks: 5,
  brokenLinks: 0,
  uniqueBrokenLinks: 0,
  uniqueUnverifiedLinks: 0,
  reasons: {},
  durationMs: 4321,
  brokenAnchors: 3,
  duplicateAnchors: 2,
  fattestPages: 2,
  pageSizeBuckets: [2, 0, 1, 0, 0, 1],
  fileTypes: [
    { contentType: 'image/jpeg', count: 4, totalSize: 7_600_000 },
    { contentType: 'text/html', count: 4, totalSize: 80_000 },
    { contentType: 'text/css', count: 1, totalSize: 8_000 },
    { contentType: 'application/pdf', count: 1, totalSize: 999 },
  ],
  certificateProblems: 2,
  sitemap: {
    sitemaps: [`${site}/sitemap.xml`],
    urls: 4,
    orphans: 1,
    broken: 1,
    redirected: 0,
    notIndexable: 1,
    missingFromSitemap: 1,
  },
};

export const allChecks: ReportChecks = {
  anchors: true,
  pageRank: true,
  pageInclusion: true,
  rules: [],
};

export const auditReport = reportOf(auditEvents, { summary: auditSummary }, allChecks);

function ruleEvent(
  ruleId: number,
  ruleName: string,
  page: string,
  at: { line: number; column: number },
  snippet: string,
  message?: string,
): RuleViolationEvent {
  return {
    type: 'rule',
    ruleId,
    ruleName,
    categoryID: Math.floor(ruleId / 1000),
    url: `${site}${page}`,
    ...at,
    snippet,
    ...(message ? { message } : {}),
  };
}

/** The rules the shop was scanned with: Misspelt word, Title missing, several h1, image alt. */
export const selectedRules = [2001, 4001, 4010, 4014];

/**
 * Quality-rule violations on three pages, in the order a crawl might report them: the blog has 13
 * h1 headings (12 violations), the about page no title and a misspelling (without a message) whose
 * source starts like a formula and spans two lines, the home page a misspelling. Image alt (4014)
 * passes everywhere.
 */
export const ruleEvents: RuleViolationEvent[] = [
  ruleEvent(2001, 'Misspelt word', '/', { line: 14, column: 9 }, 'Our shoos are comfy', '"shoos"'),
  ...Array.from({ length: 12 }, (_, index) =>
    ruleEvent(
      4010,
      'More than one h1 heading',
      '/blog',
      { line: 31 - index, column: 1 },
      `<h1>Post ${13 - index}</h1>`,
      `h1 number ${13 - index} of 13`,
    ),
  ),
  ruleEvent(2001, 'Misspelt word', '/about', { line: 8, column: 5 }, '=SUM(A1) teh\n\tbest'),
  ruleEvent(
    4001,
    'Title missing',
    '/about',
    { line: 3, column: 1 },
    '<head>',
    'No <title> element',
  ),
];

/** Three pages without links, checked against the selected rules. */
export const rulesSummary: ScanSummary = {
  ...shopSummary,
  pages: 3,
  uniqueLinks: 0,
  totalLinks: 0,
  brokenLinks: 0,
  uniqueBrokenLinks: 0,
  uniqueUnverifiedLinks: 0,
  reasons: {},
  rules: {
    checkedPages: 3,
    violations: 15,
    categories: [
      { categoryID: 2, passed: 1, failed: 2 },
      { categoryID: 4, passed: 7, failed: 2 },
    ],
  },
};

export const rulesReport = reportOf(
  ruleEvents,
  { summary: rulesSummary },
  { rules: selectedRules },
);
