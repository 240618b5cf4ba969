import { describe, expect, it } from 'vitest';
import {
  allChecks,
  auditReport,
  auditSummary,
  failedReport,
  reportOf,
  rulesReport,
  rulesSummary,
  selectedRules,
  shopReport,
} from '../test-support/reports.js';
import type { RuleViolationEvent } from '@linkaudit/engine';
import { formatJson, jsonReport } from './json.js';

const options = { color: false, version: '1.0.0' };
/** The issue-4 keys of a scan that found none of those things. */
const nothingFound = {
  anchors: { broken: [], duplicates: [], unverifiable: 0 },
  certificates: [],
  pageSizes: {
    fattest: [],
    buckets: [
      { fromBytes: 0, toBytes: 1048576, pages: 0 },
      { fromBytes: 1048576, toBytes: 2097152, pages: 0 },
      { fromBytes: 2097152, toBytes: 3145728, pages: 0 },
      { fromBytes: 3145728, toBytes: 4194304, pages: 0 },
      { fromBytes: 4194304, toBytes: 5242880, pages: 0 },
      { fromBytes: 5242880, toBytes: null, pages: 0 },
    ],
    heaviest: [],
  },
  fileTypes: [],
};
const noIssueFourCounts = {
  brokenAnchors: 0,
  duplicateAnchors: 0,
  fattestPages: 0,
  certificateProblems: 0,
};

const page = (path: string, line: number, column: number, element = 'a', attribute = 'href') => ({
  url: `https://shop.example.com${path}`,
  element,
  attribute,
  line,
  column,
});

describe('the JSON report', () => {
  it('has exactly the documented shape, broken and unverified sorted by URL', () => {
    const expected = {
      tool: 'linkaudit',
      startUrl: 'https://shop.example.com/',
      status: 'Complete',
      statusCode: 1,
      summary: {
        pages: 2,
        uniqueLinks: 10,
        totalLinks: 12,
        brokenLinks: 7,
        uniqueBrokenLinks: 6,
        uniqueUnverifiedLinks: 1,
        durationMs: 4321,
        reasons: {
          'Not Found': 2,
          'Service Unavailable': 1,
          'Source Attribute Missing': 1,
          'Invalid Remote Name': 1,
          'Internal Server Error': 1,
        },
        ...noIssueFourCounts,
      },
      broken: [
        {
          url: '',
          reason: 'Source Attribute Missing',
          statusCode: null,
          message: 'The src attribute is missing or empty',
          referenceCount: 1,
          redirects: [],
          sources: [page('/', 20, 3, 'img', 'src')],
        },
        {
          url: 'https://cdn.example.net/logo.png',
          reason: 'Service Unavailable',
          statusCode: 503,
          message: '503 Service Unavailable',
          referenceCount: 1,
          redirects: [],
          sources: [page('/', 8, 3, 'img', 'src')],
        },
        {
          url: 'https://gone.example.org/',
          reason: 'Invalid Remote Name',
          statusCode: null,
          message: 'DNS lookup failed for gone.example.org (ENOTFOUND)',
          referenceCount: 1,
          redirects: [],
          sources: [page('/about', 6, 1)],
        },
        {
          url: 'https://shop.example.com/moved',
          reason: 'Not Found',
          statusCode: 410,
          message: '410 Gone',
          referenceCount: 1,
          redirects: [{ url: 'https://shop.example.com/moved', statusCode: 301 }],
          sources: [page('/about', 7, 1)],
        },
        {
          url: 'https://shop.example.com/old-page',
          reason: 'Not Found',
          statusCode: 404,
          message: '404 Not Found',
          referenceCount: 2,
          redirects: [],
          sources: [page('/', 12, 7), page('/about', 5, 1)],
        },
        {
          url: 'https://shop.example.com/search?q=shoes&sort=price,asc',
          reason: 'Internal Server Error',
          statusCode: 500,
          message: '500 Internal Server Error',
          referenceCount: 1,
          redirects: [],
          sources: [page('/about', 9, 3)],
        },
      ],
      unverified: [
        {
          url: 'https://www.linkedin.com/company/shop',
          cause: 'bot-protection',
          statusCode: 999,
          message: '999 Request denied',
          referenceCount: 1,
          sources: [page('/', 40, 9)],
        },
      ],
      warnings: [],
      notChecked: [],
      ...nothingFound,
    };
    // The exact text, key order included: two-space indentation and a final newline.
    expect(formatJson(shopReport, options)).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('carries why a scan stopped and its error', () => {
    const json = JSON.parse(formatJson(failedReport, options));
    expect(json).toEqual({
      tool: 'linkaudit',
      startUrl: 'http://127.0.0.1:9/',
      status: 'Failed',
      statusCode: 3,
      stoppedBy: 'error',
      error: 'The start page could not be fetched: connect ECONNREFUSED 127.0.0.1:9',
      summary: {
        pages: 0,
        uniqueLinks: 0,
        totalLinks: 0,
        brokenLinks: 0,
        uniqueBrokenLinks: 0,
        uniqueUnverifiedLinks: 0,
        durationMs: 12,
        reasons: {},
        ...noIssueFourCounts,
      },
      broken: [],
      unverified: [],
      warnings: [],
      notChecked: [],
      ...nothingFound,
    });
    expect(Object.keys(json as object).slice(0, 7)).toEqual([
      'tool',
      'startUrl',
      'status',
      'statusCode',
      'stoppedBy',
      'error',
      'summary',
    ]);
  });

  it('adds anchors, certificates, page sizes, file types, page rank and inclusion', () => {
    const json = JSON.parse(formatJson(auditReport, options));
    expect(Object.keys(json as object)).toEqual([
      'tool',
      'startUrl',
      'status',
      'statusCode',
      'summary',
      'broken',
      'unverified',
      'warnings',
      'notChecked',
      'anchors',
      'certificates',
      'pageSizes',
      'fileTypes',
      'pageRank',
      'pageInclusion',
    ]);
    expect(json.summary).toMatchObject({
      brokenAnchors: 3,
      duplicateAnchors: 2,
      fattestPages: 2,
      certificateProblems: 2,
    });
    expect(json.anchors).toEqual({
      broken: [
        {
          url: 'https://shop.example.com/#contact',
          page: 'https://shop.example.com/',
          fragment: '#contact',
          referenceCount: 1,
          sources: [page('/about', 9, 1)],
        },
        {
          url: 'https://shop.example.com/about#team',
          page: 'https://shop.example.com/about',
          fragment: '#team',
          referenceCount: 2,
          sources: [page('/', 14, 5), page('/blog', 3, 1)],
        },
      ],
      duplicates: [
        {
          page: 'https://shop.example.com/',
          name: 'nav',
          first: { line: 5, column: 1 },
          duplicate: { line: 30, column: 1 },
        },
        {
          page: 'https://shop.example.com/about',
          name: 'main',
          first: { line: 12, column: 3 },
          duplicate: { line: 40, column: 3 },
        },
      ],
      unverifiable: 1,
    });
    expect(json.certificates).toEqual([
      {
        host: 'cdn.example.net',
        valid: true,
        problem: null,
        errorCode: null,
        message: 'The certificate expires in 10 days (2025-06-21)',
        subject: '*.example.net',
        issuer: 'R10',
        validFrom: '2025-03-23T00:00:00.000Z',
        validTo: '2025-06-21T12:00:00.000Z',
        daysLeft: 10,
        expiresSoon: true,
      },
      {
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
        host: 'shop.example.com',
        valid: true,
        problem: null,
        errorCode: null,
        message: 'The certificate is valid',
        subject: 'shop.example.com',
        issuer: 'R11',
        validFrom: '2025-03-01T00:00:00.000Z',
        validTo: '2025-09-01T00:00:00.000Z',
        daysLeft: 82,
        expiresSoon: false,
      },
    ]);
    const blog = {
      page: 'https://shop.example.com/blog',
      totalBytes: 5_300_000,
      htmlBytes: 10_000,
      unknownSizes: 1,
      contents: [
        { contentType: 'image/jpeg', totalSize: 5_150_000, count: 1 },
        { contentType: 'text/html', totalSize: 10_000, count: 1 },
        { contentType: 'video/mp4', totalSize: 0, count: 1 },
      ],
    };
    const home = {
      page: 'https://shop.example.com/',
      totalBytes: 2_500_000,
      htmlBytes: 50_000,
      unknownSizes: 0,
      contents: [
        { contentType: 'image/jpeg', totalSize: 2_450_000, count: 3 },
        { contentType: 'text/html', totalSize: 50_000, count: 1 },
      ],
    };
    expect(json.pageSizes.fattest).toEqual([blog, home]);
    expect((json.pageSizes.buckets as { pages: number }[]).map((bucket) => bucket.pages)).toEqual([
      2, 0, 1, 0, 0, 1,
    ]);
    expect((json.pageSizes.heaviest as { page: string }[]).map((entry) => entry.page)).toEqual([
      'https://shop.example.com/blog',
      'https://shop.example.com/',
      'https://shop.example.com/about',
      'https://shop.example.com/contact',
    ]);
    expect((json.pageSizes.heaviest as unknown[]).slice(0, 2)).toEqual([blog, home]);
    expect(json.fileTypes).toEqual(auditSummary.fileTypes);
    expect(json.pageRank).toEqual([
      { page: 'https://shop.example.com/', rank: 0.4, score: 10 },
      { page: 'https://shop.example.com/contact', rank: 0.25, score: 6.3 },
      { page: 'https://shop.example.com/about', rank: 0.2, score: 5 },
      { page: 'https://shop.example.com/blog', rank: 0.15, score: 3.8 },
    ]);
    expect(json.pageInclusion.summary).toEqual({
      sitemaps: ['https://shop.example.com/sitemap.xml'],
      urls: 4,
      orphans: 1,
      broken: 1,
      redirected: 0,
      notIndexable: 1,
      missingFromSitemap: 1,
    });
    expect((json.pageInclusion.pages as { page: string }[]).map((entry) => entry.page)).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/about',
      'https://shop.example.com/blog',
      'https://shop.example.com/contact',
      'https://shop.example.com/gone',
    ]);
    expect(json.pageInclusion.pages[1]).toEqual({
      page: 'https://shop.example.com/about',
      statusCode: 200,
      inboundLinks: 1,
      inboundSources: ['https://shop.example.com/'],
      indexable: false,
      notIndexableBecause: ['noindex-meta', 'canonical-elsewhere'],
      canonical: 'https://shop.example.com/',
      inSitemap: true,
      orphan: false,
    });
    expect(json.pageInclusion.pages[4]).toEqual({
      page: 'https://shop.example.com/gone',
      statusCode: 404,
      inboundLinks: 0,
      inboundSources: [],
      indexable: false,
      notIndexableBecause: ['status'],
      canonical: null,
      inSitemap: true,
      orphan: false,
    });
  });

  it('has page rank and inclusion keys, empty, when they were asked for and nothing came', () => {
    const json = JSON.parse(formatJson(reportOf([], {}, allChecks), options));
    expect(json.pageRank).toEqual([]);
    expect(json.pageInclusion).toEqual({ summary: null, pages: [] });
  });
});

describe('the quality rules in the JSON report', () => {
  const json = JSON.parse(formatJson(rulesReport, options));
  const site = 'https://shop.example.com';

  it('adds a rules key after the others, leaving the existing keys as they were', () => {
    const keys = Object.keys(json as object);
    const before = JSON.parse(formatJson(shopReport, options)) as object;
    expect(keys.at(-1)).toBe('rules');
    expect(keys.slice(0, -1)).toEqual(Object.keys(before));
    expect(JSON.parse(formatJson(shopReport, options)).rules).toBeUndefined();
  });

  it('has the tally with category labels and each selected rule with its count', () => {
    expect(json.rules.summary).toEqual({
      checkedPages: 3,
      violations: 15,
      categories: [
        { categoryID: 2, category: 'Spellcheck', passed: 1, failed: 2 },
        { categoryID: 4, category: 'SEO', passed: 7, failed: 2 },
      ],
    });
    expect(json.rules.selected).toEqual([
      {
        ruleId: 2001,
        slug: 'spelling/misspelt-word',
        ruleName: 'Misspelt word',
        categoryID: 2,
        violations: 2,
        helpUri: 'https://linkaudit.dev/rules/2001',
      },
      {
        ruleId: 4001,
        slug: 'seo/title-missing',
        ruleName: 'Title missing',
        categoryID: 4,
        violations: 1,
        helpUri: 'https://linkaudit.dev/rules/4001',
      },
      {
        ruleId: 4010,
        slug: 'seo/h1-multiple',
        ruleName: 'More than one h1 heading',
        categoryID: 4,
        violations: 12,
        helpUri: 'https://linkaudit.dev/rules/4010',
      },
      {
        ruleId: 4014,
        slug: 'seo/image-alt-missing',
        ruleName: 'Image without alt attribute',
        categoryID: 4,
        violations: 0,
        helpUri: 'https://linkaudit.dev/rules/4014',
      },
    ]);
  });

  it('lists every violation by page, line, column and rule, the snippet as it was', () => {
    const h1 = (line: number) => ({
      ruleId: 4010,
      ruleName: 'More than one h1 heading',
      categoryID: 4,
      url: `${site}/blog`,
      line,
      column: 1,
      snippet: `<h1>Post ${line - 18}</h1>`,
      message: `h1 number ${line - 18} of 13`,
    });
    expect(json.rules.violations).toEqual([
      {
        ruleId: 2001,
        ruleName: 'Misspelt word',
        categoryID: 2,
        url: `${site}/`,
        line: 14,
        column: 9,
        snippet: 'Our shoos are comfy',
        message: '"shoos"',
      },
      {
        ruleId: 4001,
        ruleName: 'Title missing',
        categoryID: 4,
        url: `${site}/about`,
        line: 3,
        column: 1,
        snippet: '<head>',
        message: 'No <title> element',
      },
      {
        ruleId: 2001,
        ruleName: 'Misspelt word',
        categoryID: 2,
        url: `${site}/about`,
        line: 8,
        column: 5,
        snippet: '=SUM(A1) teh\n\tbest',
        message: null,
      },
      ...Array.from({ length: 12 }, (_, index) => h1(20 + index)),
    ]);
  });

  it('writes thousands of violations in pieces, the same text as one JSON.stringify', () => {
    const events: RuleViolationEvent[] = Array.from({ length: 2500 }, (_, index) => ({
      type: 'rule',
      ruleId: 4010,
      ruleName: 'More than one h1 heading',
      categoryID: 4,
      url: `${site}/p${index % 7}`,
      line: index + 1,
      column: 1,
      snippet: `<h1 title="a \\ b">Post\t${index}</h1>`,
      ...(index % 2 === 0 ? { message: `h1 "${index}"` } : {}),
    }));
    const report = reportOf(events, { summary: rulesSummary }, { rules: selectedRules });
    const chunks = [...jsonReport(report, options)];
    const text = chunks.join('');
    expect(chunks.length).toBeGreaterThan(3);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const { violations } = JSON.parse(text).rules as {
      violations: { url: string; line: number }[];
    };
    expect(violations).toHaveLength(2500);
    expect(violations.slice(0, 2)).toMatchObject([
      { url: `${site}/p0`, line: 1, message: 'h1 "0"', snippet: '<h1 title="a \\ b">Post\t0</h1>' },
      { url: `${site}/p0`, line: 8, message: null },
    ]);
    expect(violations.at(-1)).toMatchObject({ url: `${site}/p6`, line: 2499 });
    expect(formatJson(report, options)).toBe(text);
  });

  it('has a null summary when the engine counted nothing', () => {
    const { rules, ...summary } = rulesReport.done.summary;
    expect(rules).toBeDefined();
    const report = reportOf([], { summary }, { rules: [4001] });
    expect(JSON.parse(formatJson(report, options)).rules).toMatchObject({
      summary: null,
      violations: [],
    });
  });
});
