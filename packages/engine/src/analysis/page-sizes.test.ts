import { describe, expect, it } from 'vitest';
import { baseContentType, isFatPage, pageSize, pageSizeBucket } from './page-sizes.js';

describe('page sizes', () => {
  it('adds the HTML and every resource, grouped by content type', () => {
    const size = pageSize(1000, 'text/html; charset=utf-8', [
      { contentType: 'image/png', size: 2000 },
      { contentType: 'IMAGE/PNG', size: 500 },
      { contentType: 'text/css', size: 300 },
      { contentType: 'font/woff2', size: undefined },
    ]);
    expect(size).toEqual({
      htmlBytes: 1000,
      totalBytes: 3800,
      contents: [
        { contentType: 'image/png', totalSize: 2500, count: 2 },
        { contentType: 'text/html', totalSize: 1000, count: 1 },
        { contentType: 'text/css', totalSize: 300, count: 1 },
        { contentType: 'font/woff2', totalSize: 0, count: 1 },
      ],
      unknownSizes: 1,
    });
  });

  it('puts pages in the 1 MB buckets of SPEC §9 and flags those over 2 MB', () => {
    const mb = 1048576;
    expect(
      [0, mb - 1, mb, 2 * mb, 2 * mb + 1, 4.5 * mb, 5 * mb, 50 * mb].map(pageSizeBucket),
    ).toEqual([0, 0, 1, 2, 2, 4, 5, 5]);
    expect([2 * mb, 2 * mb + 1].map(isFatPage)).toEqual([false, true]);
    expect(baseContentType(undefined)).toBe('unknown');
  });
});
