import { FailureReason } from '@linkaudit/core';
import type { LinkCheck, PageSizeEvent, ScanEvent } from '@linkaudit/engine';
import { describe, expect, it } from 'vitest';
import {
  groupByReason,
  isBrokenSitemapEntry,
  ReportCollector,
  sizeBuckets,
  statusName,
} from './report.js';
import {
  allChecks,
  auditEvents,
  auditReport,
  auditSummary,
  linkEvent,
  shopEvents,
  shopReport,
  shopSummary,
} from './test-support/reports.js';

describe('collecting a scan', () => {
  it('keeps broken and unverified URLs with every source, and only counts the OK links', () => {
    expect(shopReport.okLinks).toBe(3);
    expect(shopReport.broken.map((item) => [item.url, item.referenceCount])).toEqual([
      ['', 1],
      ['https://cdn.example.net/logo.png', 1],
      ['https://gone.example.org/', 1],
      ['https://shop.example.com/moved', 1],
      ['https://shop.example.com/old-page', 2],
      ['https://shop.example.com/search?q=shoes&sort=price,asc', 1],
    ]);
    expect(shopReport.unverified.map((item) => item.url)).toEqual([
      'https://www.linkedin.com/company/shop',
    ]);
    const serialised = JSON.stringify(shopReport);
    expect(serialised).not.toContain('/contact');
    expect(serialised).not.toContain('mailto:');
  });

  it('orders sources by page, line and column whatever order the events came in', () => {
    const collector = new ReportCollector();
    for (const event of [...shopEvents].reverse()) collector.add(event);
    const report = collector.finish({ type: 'done', summary: shopSummary });
    expect(report).toEqual(shopReport);
  });

  it('reports the same when the engine leaves out the links that are fine', () => {
    const fine = (event: ScanEvent) =>
      event.type === 'link' &&
      event.check.state === 'ok' &&
      event.anchor?.state !== 'missing' &&
      event.anchor?.state !== 'unverifiable';
    const cases = [
      { events: shopEvents, summary: shopSummary, checks: {}, report: shopReport },
      { events: auditEvents, summary: auditSummary, checks: allChecks, report: auditReport },
    ];
    for (const { events, summary, checks, report } of cases) {
      const collector = new ReportCollector(checks, { okLinksOmitted: true });
      for (const event of events) if (!fine(event)) collector.add(event);
      expect(collector.finish({ type: 'done', summary })).toEqual(report);
    }
  });

  it('groups broken URLs by reason, the most frequent first', () => {
    expect(
      groupByReason(shopReport.broken).map(([reason, items]) => [reason, items.length]),
    ).toEqual([
      [FailureReason.NotFound, 2],
      [FailureReason.InternalServerError, 1],
      [FailureReason.InvalidRemoteName, 1],
      [FailureReason.ServiceUnavailable, 1],
      [FailureReason.SourceAttributeMissing, 1],
    ]);
  });

  it('keeps the first check of a URL for all its occurrences', () => {
    const collector = new ReportCollector();
    const check = (statusCode: number): LinkCheck => ({
      state: 'broken',
      reason: FailureReason.NotFound,
      statusCode,
      message: `${statusCode}`,
      redirects: [],
    });
    collector.add(
      linkEvent(
        'https://a.example/',
        'https://a.example/x#one',
        { line: 1, column: 1 },
        check(404),
      ),
    );
    collector.add(
      linkEvent(
        'https://a.example/',
        'https://a.example/x#two',
        { line: 2, column: 1 },
        check(410),
      ),
    );
    const report = collector.finish({ type: 'done', summary: shopSummary });
    expect(report.broken).toHaveLength(1);
    expect(report.broken[0]).toMatchObject({ url: 'https://a.example/x', referenceCount: 2 });
    expect(report.broken[0]!.check.statusCode).toBe(404);
  });

  it('keeps each link without a URL apart, as the engine counts them', () => {
    const collector = new ReportCollector();
    const page = 'https://a.example/';
    collector.add(
      linkEvent(
        page,
        '',
        { element: 'img', line: 9, column: 1 },
        {
          state: 'broken',
          reason: FailureReason.SourceAttributeMissing,
          message: '<img> has no src (missing or empty)',
          redirects: [],
        },
      ),
    );
    collector.add(
      linkEvent(
        page,
        '',
        { line: 3, column: 1 },
        {
          state: 'broken',
          reason: FailureReason.InvalidFormat,
          message: 'Not a valid URL: http://exa mple.com',
          redirects: [],
        },
      ),
    );
    const report = collector.finish({ type: 'done', summary: shopSummary });
    expect(report.broken.map((item) => [item.url, item.check.reason, item.referenceCount])).toEqual(
      [
        ['', FailureReason.InvalidFormat, 1],
        ['', FailureReason.SourceAttributeMissing, 1],
      ],
    );
  });

  it('names statuses as core does', () => {
    expect(statusName(1)).toBe('Complete');
    expect(statusName(10)).toBe('OverMaxLinks');
    expect(statusName(99)).toBe('Status 99');
  });
});

describe('collecting anchors, certificates, sizes, page rank and inclusion', () => {
  const ok: LinkCheck = { state: 'ok', statusCode: 200, finalUrl: '', redirects: [] };
  const pageSize = (page: string, totalBytes: number): PageSizeEvent => ({
    type: 'page-size',
    page,
    htmlBytes: 1000,
    totalBytes,
    contents: [{ contentType: 'text/html', totalSize: totalBytes, count: 1 }],
    unknownSizes: 0,
  });

  it('groups links to a missing anchor by target and does not count them as OK', () => {
    expect(auditReport.okLinks).toBe(2);
    expect(auditReport.unverifiableAnchors).toBe(1);
    expect(
      auditReport.brokenAnchors.map((anchor) => [
        anchor.url,
        anchor.page,
        anchor.fragment,
        anchor.referenceCount,
        anchor.sources.map((source) => `${source.url}:${source.line}`),
      ]),
    ).toEqual([
      [
        'https://shop.example.com/#contact',
        'https://shop.example.com/',
        '#contact',
        1,
        ['https://shop.example.com/about:9'],
      ],
      [
        'https://shop.example.com/about#team',
        'https://shop.example.com/about',
        '#team',
        2,
        ['https://shop.example.com/:14', 'https://shop.example.com/blog:3'],
      ],
    ]);
    expect(auditReport.broken).toEqual([]);
  });

  it('sorts duplicates by page and position, certificates by host, ranks best first', () => {
    expect(auditReport.duplicateAnchors.map((duplicate) => duplicate.name)).toEqual([
      'nav',
      'main',
    ]);
    expect(auditReport.certificates.map((certificate) => certificate.host)).toEqual([
      'cdn.example.net',
      'old.example.org',
      'shop.example.com',
    ]);
    expect(auditReport.pageRanks?.map((rank) => rank.score)).toEqual([10, 6.3, 5, 3.8]);
    expect(auditReport.pageInclusion?.map((entry) => entry.page.slice(24))).toEqual([
      '/',
      '/about',
      '/blog',
      '/contact',
      '/gone',
    ]);
  });

  it('gives the same report whatever order the events came in', () => {
    const collector = new ReportCollector(allChecks);
    for (const event of [...auditEvents].reverse()) collector.add(event);
    expect(collector.finish({ type: 'done', summary: auditSummary })).toEqual(auditReport);
  });

  it('keeps every page over 2 MiB but only the ten heaviest of the others', () => {
    const collector = new ReportCollector();
    const sizes = [5, 900_000, 2_097_152, 2_097_153, 3_000_000, 10, 20, 30, 40, 50, 60, 70, 80];
    sizes.forEach((size, index) => collector.add(pageSize(`https://a.example/${index}`, size)));
    collector.add(pageSize('https://a.example/same', 80));
    const report = collector.finish({ type: 'done', summary: shopSummary });
    expect(report.fattestPages.map((page) => page.totalBytes)).toEqual([3_000_000, 2_097_153]);
    expect(report.heaviestPages.map((page) => [page.page.slice(18), page.totalBytes])).toEqual([
      ['4', 3_000_000],
      ['3', 2_097_153],
      ['2', 2_097_152],
      ['1', 900_000],
      ['12', 80],
      ['same', 80],
      ['11', 70],
      ['10', 60],
      ['9', 50],
      ['8', 40],
    ]);
  });

  it('keeps no OK link, no found anchor, and page rank and inclusion only when asked for', () => {
    const collector = new ReportCollector({ anchors: true });
    for (const event of auditEvents) collector.add(event);
    collector.add(
      linkEvent('https://a.example/', 'https://a.example/kept-out#x', { line: 1, column: 1 }, ok, {
        fragment: '#x',
        state: 'found',
      }),
    );
    const report = collector.finish({ type: 'done', summary: auditSummary });
    expect(report.pageRanks).toBeUndefined();
    expect(report.pageInclusion).toBeUndefined();
    const serialised = JSON.stringify(report);
    expect(serialised).not.toContain('kept-out');
    expect(serialised).not.toContain('#history');
    expect(serialised).not.toContain('terms.pdf');
  });

  it('ignores pages, progress and done events', () => {
    const collector = new ReportCollector(allChecks);
    const events: ScanEvent[] = [
      {
        type: 'page',
        url: 'https://a.example/',
        finalUrl: 'https://a.example/',
        statusCode: 200,
        contentType: 'text/html',
        bytes: 10,
        depth: 1,
        linkCount: 0,
      },
      { type: 'progress', queued: 0, processed: 1, pages: 1, links: 0, broken: 0, elapsedMs: 1 },
    ];
    for (const event of events) collector.add(event);
    const report = collector.finish({ type: 'done', summary: shopSummary });
    expect(report).toMatchObject({ okLinks: 0, broken: [], pageRanks: [], pageInclusion: [] });
  });

  it('names the bounds of the page-size buckets in bytes', () => {
    expect(sizeBuckets(auditSummary)).toEqual([
      { fromBytes: 0, toBytes: 1_048_576, pages: 2 },
      { fromBytes: 1_048_576, toBytes: 2_097_152, pages: 0 },
      { fromBytes: 2_097_152, toBytes: 3_145_728, pages: 1 },
      { fromBytes: 3_145_728, toBytes: 4_194_304, pages: 0 },
      { fromBytes: 4_194_304, toBytes: 5_242_880, pages: 0 },
      { fromBytes: 5_242_880, toBytes: null, pages: 1 },
    ]);
  });

  it('tells a broken sitemap entry from a crawled page that is not indexable', () => {
    const entries = auditReport.pageInclusion ?? [];
    expect(entries.filter(isBrokenSitemapEntry).map((entry) => entry.page)).toEqual([
      'https://shop.example.com/gone',
    ]);
    const entry = { ...entries[0]!, indexable: false, notIndexableBecause: ['status'] };
    expect(isBrokenSitemapEntry({ ...entry, statusCode: 203 })).toBe(false);
    expect(isBrokenSitemapEntry({ ...entry, statusCode: 410 })).toBe(true);
    const { statusCode: _unused, ...unanswered } = entry;
    expect(isBrokenSitemapEntry(unanswered)).toBe(true);
    expect(isBrokenSitemapEntry({ ...entry, statusCode: 404, inSitemap: false })).toBe(false);
  });
});
