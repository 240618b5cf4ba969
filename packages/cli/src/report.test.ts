import { FailureReason } from '@linkaudit/core';
import type { LinkCheck } from '@linkaudit/engine';
import { describe, expect, it } from 'vitest';
import { groupByReason, ReportCollector, statusName } from './report.js';
import { linkEvent, shopEvents, shopReport, shopSummary } from './test-support/reports.js';

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
    const report = collector.finish({ type: 'done', status: 1, summary: shopSummary });
    expect(report).toEqual(shopReport);
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
    const report = collector.finish({ type: 'done', status: 1, summary: shopSummary });
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
    const report = collector.finish({ type: 'done', status: 1, summary: shopSummary });
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
