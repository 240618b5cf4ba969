// PageRank (checkPageRank) over the internal links between crawled pages, computed by hand below
// for a four-page site with a dangling page, a link through a redirect, a self-link, a repeated
// link and links to things that are not crawled pages (an image, a 404, another site).
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  linksPage,
  redirect,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'other.test']);
let site: TestSite;
let other: TestSite;

beforeAll(async () => {
  other = await startTestSite({ '/': 'another site' }, { host: 'other.test' });
  site = await startTestSite(
    {
      // A → B, A → C. The self-link and the second link to B add no edge.
      '/': linksPage(['/', '/b.html', '/b.html', '/c.html']),
      // B → C. Another site is not part of the graph.
      '/b.html': linksPage(['/c.html', other.url('/')]),
      // C → A, C → D (through a redirect: a link to the page it reaches).
      '/c.html': linksPage(['/', '/old-d.html']),
      '/old-d.html': redirect('/d.html'),
      // D links to no crawled page: an image and a 404 are not pages. D is dangling.
      '/d.html': htmlPage('<img src="/logo.png" alt="">\n<a href="/missing.html">gone</a>'),
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

/*
 * N = 4 pages, d = 0.85. Out-degrees: A 2 (B, C), B 1 (C), C 2 (A, D), D 0 (dangling: its rank
 * is spread over all four pages). For every page X:
 *
 *   r(X) = (1 − d)/N + d·r(D)/N + d·Σ over Y → X of r(Y)/out(Y)
 *
 *   r(A) = 0.0375 + 0.2125·r(D) + 0.85·r(C)/2
 *   r(B) = 0.0375 + 0.2125·r(D) + 0.85·r(A)/2
 *   r(C) = 0.0375 + 0.2125·r(D) + 0.85·(r(A)/2 + r(B))
 *   r(D) = 0.0375 + 0.2125·r(D) + 0.85·r(C)/2
 *
 * A and D have the same equation, so r(A) = r(D) = a. Then
 *   r(B) = 0.0375 + 0.6375·a
 *   r(C) = 0.0375 + 0.6375·a + 0.85·r(B) = 0.069375 + 1.179375·a
 * and the ranks sum to 1: 2a + r(B) + r(C) = 3.816875·a + 0.106875 = 1, so
 *   a = 0.893125 / 3.816875 = 1429 / 6107 ≈ 0.233994
 *   r(B) ≈ 0.186671, r(C) ≈ 0.345341 (the best page).
 * Scores are 10·r/r(C), one decimal: A 6.8, B 5.4, C 10, D 6.8.
 */
const a = 1429 / 6107;
const expectedRanks = {
  '/': a,
  '/b.html': 0.0375 + 0.6375 * a,
  '/c.html': 0.069375 + 1.179375 * a,
  '/d.html': a,
};
const expectedScores = { '/': 6.8, '/b.html': 5.4, '/c.html': 10, '/d.html': 6.8 };

describe('page rank', () => {
  it('ranks every crawled page by PageRank and scores it 0–10 against the best page', async () => {
    const { events, pages, done } = await collectScan(
      { url: site.url('/'), scanDepth: 3, checkPageRank: true },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => page.finalUrl).sort()).toEqual(
      Object.keys(expectedRanks).map((path) => site.url(path)),
    );
    const ranks = eventsOfType(events, 'page-rank').sort((x, y) => x.page.localeCompare(y.page));
    expect(ranks.map(({ type, page, score }) => ({ type, page, score }))).toEqual(
      Object.entries(expectedScores).map(([path, score]) => ({
        type: 'page-rank',
        page: site.url(path),
        score,
      })),
    );
    for (const [path, rank] of Object.entries(expectedRanks)) {
      const event = ranks.find((candidate) => candidate.page === site.url(path));
      expect(event?.rank, path).toBeCloseTo(rank, 6);
    }
    expect(ranks.reduce((sum, event) => sum + event.rank, 0)).toBeCloseTo(1, 6);
  });

  it('reports the analysis once the crawl is over: its phases, sizes, then ranks, then inclusion, then done', async () => {
    const { events } = await collectScan(
      { url: site.url('/'), scanDepth: 3, checkPageRank: true, checkPageInclusion: true },
      { lookup },
    );
    const types = events
      .filter((event) => event.type !== 'progress')
      .map((event) => (event.type === 'phase' ? event.phase : event.type));
    const crawlEnd = types.indexOf('rule-checking');
    expect(types.slice(0, crawlEnd).every((type) => type === 'page' || type === 'link')).toBe(true);
    expect(types.slice(crawlEnd, crawlEnd + 2)).toEqual(['rule-checking', 'finalizing']);
    expect(types.slice(crawlEnd + 2)).toEqual([
      ...Array<string>(4).fill('page-size'),
      ...Array<string>(4).fill('page-rank'),
      ...Array<string>(4).fill('page-inclusion'),
      'done',
    ]);
  });

  it('emits no page-rank events when checkPageRank is off', async () => {
    const { events, pages } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    expect(pages).toHaveLength(4);
    expect(eventsOfType(events, 'page-rank')).toEqual([]);
  });
});
