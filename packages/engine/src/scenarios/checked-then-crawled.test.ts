// A page first met through a link that is only checked (`<link rel="author">`, an image, a
// too-deep link) and later through one a visitor follows is still crawled: Sphinx puts
// `<link rel="search" href="search.html">` on every page, before any `<a>` to it.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  htmlPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

let site: TestSite;

beforeAll(async () => {
  site = await startTestSite({
    '/': htmlPage(
      '<a href="/d.html">d</a> <a href="/feed.xml">feed</a>',
      '<link rel="author" href="/about.html"><link rel="search" href="/search.html"><link rel="alternate" href="/feed.xml"><link rel="next" href="/gone.html">',
    ),
    '/d.html': htmlPage(
      '<a href="/about.html">about</a> <a href="/search.html#q">search</a> <a href="/gone.html">gone</a>',
    ),
    '/about.html': htmlPage('<p id="team">team</p> <a href="/only-from-about.html">more</a>'),
    '/search.html': htmlPage('<form id="q"></form> <a href="/d.html">back</a>'),
    '/only-from-about.html': htmlPage('<a href="/">home</a>'),
    '/feed.xml': {
      headers: { 'content-type': 'application/rss+xml' },
      body: '<rss version="2.0"></rss>',
    },
  });
});
afterAll(() => site.close());

describe('a page checked first and linked for a visitor later', () => {
  it('is crawled: its links are followed and its anchors read, and it is fetched as a URL once', async () => {
    const { pages, links, done } = await collectScan({
      url: site.url('/'),
      scanDepth: 3,
      checkAnchors: true,
    });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => page.url).sort()).toEqual(
      ['/', '/about.html', '/d.html', '/only-from-about.html', '/search.html'].map((path) =>
        site.url(path),
      ),
    );
    expect(done.summary.pages).toBe(5);
    expect(links.filter((link) => link.anchor && link.anchor.state !== 'found')).toEqual([]);
    expect(
      urlOutcomes(links).map(({ url, state, referenceCount }) => [url, state, referenceCount]),
    ).toEqual([
      [site.url('/'), 'ok', 1],
      [site.url('/about.html'), 'ok', 2],
      [site.url('/d.html'), 'ok', 2],
      [site.url('/feed.xml'), 'ok', 2],
      [site.url('/gone.html'), 'broken', 2],
      [site.url('/only-from-about.html'), 'ok', 1],
      [site.url('/search.html'), 'ok', 2],
    ]);
    // Unique URLs are counted once, however they were fetched.
    expect(done.summary.uniqueLinks).toBe(7);
    // A page that is not HTML, or that is broken, is not asked for again.
    expect(site.requestsFor('/feed.xml')).toHaveLength(1);
    // (/gone.html: its check's HEAD, and the GET a 404 on HEAD gets; nothing after the check.)
    expect(site.methodsFor('/gone.html')).toEqual(['HEAD', 'GET']);
  });
});
