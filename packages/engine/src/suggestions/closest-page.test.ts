// The closest-page guess on a site of 100,000 pages with 5,000 broken internal links (issue 34):
// each broken link is compared with a bounded list of candidates, never with every page, and
// the guesses are the ones a comparison with every page gives.
import { describe, expect, it } from 'vitest';
import { PageIndex } from './closest-page.js';

const origin = 'https://shop.test';
const pageCount = 100_000;
const brokenCount = 5_000;
/** Pages compared per broken link at most: 16 path neighbours, one file name, a few titles. */
const maxScoredPerLink = 20;

function siteOf(pages: number): PageIndex {
  const index = new PageIndex();
  for (let page = 0; page < pages; page++)
    index.add(`${origin}/c${page % 97}/s${page % 1009}/item-${page}.html`, `Item ${page}`);
  index.add(`${origin}/docs/getting-started.html`, 'Getting started');
  index.add(`${origin}/reports/report-2023.html`, 'Report 2023');
  index.add(`${origin}/reports/report-2025.html`, 'Report 2025');
  index.add(`${origin}/company/who-we-are.html`, 'About our team');
  return index;
}

describe('closest pages on a 100,000-page site', () => {
  const index = siteOf(pageCount);
  const gone = Array.from(
    { length: brokenCount },
    (_, link) => `${origin}/c${link % 97}/gone-${link * 20}.html`,
  );
  const broken = [
    `${origin}/docs/getting-startd.html`,
    `${origin}/old/item-77.html`,
    `${origin}/company`,
    `${origin}/reports/report-2024.html`,
    `${origin}/nowhere/x`,
  ];
  index.prepare([...gone, ...broken], ['About our team', 'Item']);

  it('compares each broken link with a bounded list of pages', () => {
    for (const url of gone) index.closest(url, undefined);
    expect(index.scored).toBeGreaterThan(0);
    expect(index.scored).toBeLessThanOrEqual(brokenCount * maxScoredPerLink);
  });

  it('still finds a typo, a moved page and a title, and refuses a close call', () => {
    expect(index.closest(`${origin}/docs/getting-startd.html`, undefined)).toMatchObject({
      url: `${origin}/docs/getting-started.html`,
      basis: 'path',
    });
    expect(index.closest(`${origin}/old/item-77.html`, undefined)).toMatchObject({
      url: `${origin}/c77/s77/item-77.html`,
      basis: 'file-name',
    });
    expect(index.closest(`${origin}/company`, 'About our team')).toMatchObject({
      url: `${origin}/company/who-we-are.html`,
      basis: 'title',
    });
    // Two pages about as close: no guess (a wrong fix is worse than none).
    expect(index.closest(`${origin}/reports/report-2024.html`, undefined)).toBeUndefined();
  });

  it('counts a page reported twice once (two equal candidates would block every guess)', () => {
    const twice = new PageIndex();
    twice.add(`${origin}/docs/getting-started.html`, 'Getting started');
    twice.add(`${origin}/docs/getting-started.html`, 'Getting started');
    twice.prepare([`${origin}/docs/getting-startd.html`], []);
    expect(twice.closest(`${origin}/docs/getting-startd.html`, undefined)).toMatchObject({
      url: `${origin}/docs/getting-started.html`,
    });
  });

  it('makes no title guess from words that half the site shares', () => {
    expect(index.closest(`${origin}/nowhere/x`, 'Item')).toBeUndefined();
  });
});
