import { describe, expect, it } from 'vitest';
import { failedReport, shopReport } from '../test-support/reports.js';
import { formatJson } from './json.js';

const options = { color: false, version: '1.0.0' };
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
          statusCode: 999,
          message: '999 Request denied',
          referenceCount: 1,
          sources: [page('/', 40, 9)],
        },
      ],
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
      },
      broken: [],
      unverified: [],
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
});
