import { describe, expect, it } from 'vitest';
import { indexability, type IndexingFacts } from './page-inclusion.js';

const page: IndexingFacts = {
  statusCode: 200,
  robotsMeta: [],
  xRobotsTag: undefined,
  canonical: undefined,
  url: 'https://example.com/a',
  allowedByRobotsTxt: true,
};

describe('indexability', () => {
  it('a plain 200 page is indexable, also with a canonical pointing to itself', () => {
    expect(indexability(page)).toEqual({ indexable: true, notIndexableBecause: [] });
    expect(indexability({ ...page, canonical: 'https://example.com/a#top' }).indexable).toBe(true);
  });

  it('names every reason a page cannot be indexed', () => {
    expect(
      indexability({
        ...page,
        statusCode: 203,
        robotsMeta: ['index', 'nofollow, noindex'],
        xRobotsTag: 'googlebot: noindex',
        canonical: 'https://example.com/b',
        allowedByRobotsTxt: false,
      }),
    ).toEqual({
      indexable: false,
      notIndexableBecause: [
        'status',
        'noindex-meta',
        'noindex-header',
        'robots-txt',
        'canonical-elsewhere',
      ],
    });
    expect(indexability({ ...page, robotsMeta: ['none'] }).notIndexableBecause).toEqual([
      'noindex-meta',
    ]);
    expect(indexability({ ...page, robotsMeta: ['nofollow'] }).indexable).toBe(true);
  });
});
