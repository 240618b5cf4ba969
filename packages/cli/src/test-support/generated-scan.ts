import { failureReasons, FailureReason, ScanStatus } from '@linkaudit/core';
import type {
  CertificateEvent,
  LinkCheck,
  PageInclusionEvent,
  ScanEvent,
  ScanSummary,
} from '@linkaudit/engine';
import type { FinishedScan, ReportChecks } from '../report.js';
import { linkEvent } from './reports.js';

/** A small seeded PRNG (mulberry32): the same scan on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const site = 'https://big.example.org';

/** Text as pages and servers give it: quotes, markup, line breaks, control characters, non-ASCII. */
const oddTexts = [
  'plain',
  'a "quoted" <b>bold</b> & more',
  'two\nlines\r\nand a\ttab',
  '=SUM(A1) starts like a formula',
  '-1 or +1 or @home',
  'control \u0001\u0008\u001f\u007f\u0085 characters',
  'naïve café, 日本語, emoji 🙂',
  'a lone surrogate \ud800 here',
  'comma, and "quote"',
  '',
];

/** The rules the generated scan ran: built-in ones, one that never reports. */
export const generatedRules = [2001, 4001, 4010, 4014];

/**
 * A scan of a large site with thousands of findings of every kind the reports show: ~1,200 broken
 * URLs (one image in the layout with 6,000 sources), links without an address, unverified links,
 * missing and unverifiable anchors, duplicate anchors, certificates, page sizes, ranks, page
 * inclusion and 3,000 rule violations (one rule the catalogue does not know), with odd text in
 * addresses, messages and snippets. Events come in a shuffled order, as a crawl gives them.
 */
export function generatedScan(seed = 19): { events: ScanEvent[]; done: FinishedScan } {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const int = (below: number): number => Math.floor(next() * below);
  const odd = (): string => (next() < 0.15 ? pick(oddTexts) : '');
  const pages = Array.from(
    { length: 400 },
    (_, index) =>
      `${site}/s${index % 9}/p${index}${index % 37 === 0 ? `?q=${pick(['a&b', '%22q%22', 'caf%C3%A9', '=1', 'x,y'])}` : ''}.html`,
  );
  const at = () => ({
    element: pick(['a', 'a', 'a', 'img', 'iframe', 'link', 'script']),
    line: 1 + int(3000),
    column: 1 + int(200),
  });
  const events: ScanEvent[] = [];

  for (let index = 0; index < 1200; index++) {
    const reason = pick(failureReasons);
    const statusCode = next() < 0.2 ? undefined : 400 + int(200);
    const check: LinkCheck = {
      state: 'broken',
      reason,
      ...(statusCode === undefined ? {} : { statusCode }),
      message: `${statusCode ?? 'no answer'} ${reason}${odd()}`,
      redirects: Array.from({ length: next() < 0.1 ? 1 + int(3) : 0 }, (_, hop) => ({
        url: `${site}/go/${index}/${hop}`,
        statusCode: pick([301, 302, 307, 308]),
      })),
    };
    const target = `${pick([site, 'https://cdn.example.net', 'http://old.example.com'])}/missing/${index}${odd()}`;
    const sources = 1 + int(next() < 0.1 ? 40 : 4);
    for (let source = 0; source < sources; source++) {
      events.push(linkEvent(pick(pages), target, at(), check));
    }
  }
  const layoutImage: LinkCheck = {
    state: 'broken',
    reason: FailureReason.NotFound,
    statusCode: 404,
    message: '404 Not Found',
    redirects: [],
  };
  for (let source = 0; source < 6000; source++) {
    const page = pages[source % pages.length]!;
    events.push(
      linkEvent(page, `${site}/img/logo.png`, { element: 'img', line: 3, column: 9 }, layoutImage),
    );
  }
  for (let index = 0; index < 30; index++) {
    events.push(
      linkEvent(pick(pages), '', at(), {
        state: 'broken',
        reason: FailureReason.SourceAttributeMissing,
        message: 'The src attribute is missing or empty',
        redirects: [],
      }),
    );
  }
  for (let index = 0; index < 50; index++) {
    const check: LinkCheck = {
      state: 'unverified',
      cause: 'bot-protection',
      statusCode: pick([403, 429, 999]),
      message: `Request denied${odd()}`,
      redirects: [],
    };
    for (let source = 0; source < 1 + int(5); source++) {
      events.push(linkEvent(pick(pages), `https://social.example.com/u${index}`, at(), check));
    }
  }
  const ok: LinkCheck = { state: 'ok', statusCode: 200, finalUrl: '', redirects: [] };
  for (let index = 0; index < 300; index++) {
    const page = pick(pages);
    const fragment = `#part-${index}${odd()}`;
    for (let source = 0; source < 1 + int(5); source++) {
      events.push(
        linkEvent(pick(pages), `${page}${fragment}`, at(), ok, { fragment, state: 'missing' }),
      );
    }
    events.push(
      linkEvent(pick(pages), `${page}#found`, at(), ok, { fragment: '#found', state: 'found' }),
      linkEvent(pick(pages), `${site}/doc${index}.pdf#page=2`, at(), ok, {
        fragment: '#page=2',
        state: 'unverifiable',
      }),
    );
  }
  for (let index = 0; index < 200; index++) {
    events.push({
      type: 'duplicate-anchor',
      page: pick(pages),
      name: `id-${int(50)}${odd()}`,
      first: { line: 1 + int(100), column: 1 + int(80) },
      duplicate: { line: 100 + int(100), column: 1 + int(80) },
    });
  }
  const problems = [
    'expired',
    'not-yet-valid',
    'self-signed',
    'untrusted',
    'wrong-host',
    'other',
  ] as const;
  for (let index = 0; index < 24; index++) {
    const valid = index % 3 !== 0;
    const certificate: CertificateEvent = {
      type: 'certificate',
      host: `host${index}.example.${pick(['com', 'net', 'org'])}`,
      valid,
      message: valid ? `expires in ${index} days` : `certificate problem${odd()}`,
      expiresSoon: valid && index % 2 === 0,
      ...(valid ? {} : { problem: pick(problems), errorCode: 'CERT_HAS_EXPIRED' }),
      ...(index % 4 === 0 ? {} : { subject: `CN=host${index}`, issuer: 'CN=Example CA' }),
      ...(index % 5 === 0
        ? {}
        : { validFrom: '2026-01-01T00:00:00.000Z', validTo: '2026-12-01T00:00:00.000Z' }),
      ...(index % 6 === 0 ? {} : { daysLeft: index - 5 }),
    };
    events.push(certificate);
  }
  for (const page of pages) {
    const totalBytes = next() < 0.2 ? 2_000_000 + int(5_000_000) : 10_000 + int(900_000);
    events.push({
      type: 'page-size',
      page,
      htmlBytes: 5_000 + int(50_000),
      totalBytes,
      unknownSizes: int(3),
      contents: [
        { contentType: 'text/html', totalSize: 5_000 + int(50_000), count: 1 },
        { contentType: 'image/jpeg', totalSize: int(5_000_000), count: 1 + int(9) },
      ],
    });
  }
  pages.forEach((page, index) => {
    const rank = next() / pages.length;
    events.push({
      type: 'page-rank',
      page,
      rank,
      score: Math.round(rank * pages.length * 100) / 10,
    });
    const reasons = ['status', 'redirect', 'noindex-meta', 'robots-txt', 'canonical-elsewhere'];
    const notIndexableBecause =
      next() < 0.3 ? [pick(reasons), ...(next() < 0.3 ? ['not-html'] : [])] : [];
    const entry: PageInclusionEvent = {
      type: 'page-inclusion',
      page,
      ...(index % 10 === 0 ? {} : { statusCode: pick([200, 200, 200, 301, 404, 410]) }),
      inboundLinks: int(50),
      inboundSources: Array.from({ length: int(4) }, () => pick(pages)),
      indexable: notIndexableBecause.length === 0,
      notIndexableBecause,
      ...(next() < 0.1 ? { canonical: pick(pages) } : {}),
      inSitemap: next() < 0.8,
      orphan: next() < 0.05,
    };
    events.push(entry);
  });
  const rules = [
    [2001, 'Misspelt word'],
    [4001, 'Title missing'],
    [4010, 'More than one h1 heading'],
    [98765, 'A custom rule'],
  ] as const;
  for (let index = 0; index < 3000; index++) {
    const [ruleId, ruleName] = pick(rules);
    events.push({
      type: 'rule',
      ruleId,
      ruleName,
      categoryID: Math.floor(ruleId / 1000) % 10,
      url: pick(pages),
      line: int(400),
      column: int(120),
      snippet: `<h1>${pick(oddTexts)} ${index}</h1>`,
      ...(next() < 0.5 ? { message: `message ${int(20)}${odd()}` } : {}),
    });
  }

  // A crawl reports in no particular order: shuffle (Fisher-Yates).
  for (let index = events.length - 1; index > 0; index--) {
    const other = int(index + 1);
    [events[index], events[other]] = [events[other]!, events[index]!];
  }
  return { events, done: { type: 'done', status: ScanStatus.Complete, summary: summary() } };
}

function summary(): ScanSummary {
  return {
    startUrl: `${site}/`,
    pages: 400,
    uniqueLinks: 9_876,
    totalLinks: 123_456,
    brokenLinks: 10_234,
    uniqueBrokenLinks: 1_231,
    uniqueUnverifiedLinks: 50,
    reasons: {
      [FailureReason.NotFound]: 700,
      [FailureReason.TimeOut]: 31,
      [FailureReason.BadRequest]: 500,
    },
    durationMs: 98_765,
    brokenAnchors: 900,
    duplicateAnchors: 200,
    fattestPages: 80,
    pageSizeBuckets: [300, 20, 30, 20, 20, 10],
    fileTypes: [
      { contentType: 'text/html', count: 400, totalSize: 12_000_000 },
      { contentType: 'image/jpeg', count: 900, totalSize: 900_000_000 },
    ],
    certificateProblems: 12,
    sitemap: {
      sitemaps: [`${site}/sitemap.xml`, `${site}/sitemap-2.xml`],
      urls: 380,
      orphans: 20,
      broken: 14,
      redirected: 9,
      notIndexable: 70,
      missingFromSitemap: 33,
    },
    rules: {
      checkedPages: 400,
      violations: 3000,
      categories: [
        { categoryID: 2, passed: 100, failed: 300 },
        { categoryID: 4, passed: 700, failed: 500 },
      ],
    },
  };
}

/** Every optional check on, with the generated rules. */
export const everyCheck: ReportChecks = {
  anchors: true,
  pageRank: true,
  pageInclusion: true,
  rules: generatedRules,
};
