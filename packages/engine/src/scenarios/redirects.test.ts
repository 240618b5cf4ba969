// Redirects (301/302/303/307/308) are followed up to 10 hops and reported as a chain; loops and
// longer chains are broken (Bad Request).
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  linksPage,
  redirect,
  startTestSite,
  urlOutcomes,
  type SiteRoutes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'cdn.other.test']);
let site: TestSite;
let other: TestSite;

/** `/<name>/0` → `/<name>/1` → … → `/<name>/<hops>`, which answers 200. */
function chain(name: string, hops: number): SiteRoutes {
  const routes: SiteRoutes = { [`/${name}/${hops}`]: 'end of the chain' };
  for (let hop = 0; hop < hops; hop++)
    routes[`/${name}/${hop}`] = redirect(`/${name}/${hop + 1}`, 302);
  return routes;
}

const linked = [
  '/moved',
  '/chain/a',
  '/relative/start',
  '/to-missing',
  '/to-external',
  '/loop-a',
  '/self',
  '/twenty/0',
  '/twenty-one/0',
];

beforeAll(async () => {
  other = await startTestSite({ '/landing.html': 'landed' }, { host: 'cdn.other.test' });
  site = await startTestSite(
    {
      '/': linksPage(linked),
      '/target.html': 'target',
      '/moved': redirect('/target.html', 301),
      '/chain/a': redirect('/chain/b', 302),
      '/chain/b': redirect('/chain/c', 307),
      '/chain/c': redirect('/chain/d', 308),
      '/chain/d': redirect('/target.html', 303),
      '/relative/start': redirect('../target.html', 301),
      '/to-missing': redirect('/gone', 301),
      '/to-external': redirect(other.url('/landing.html'), 302),
      '/loop-a': redirect('/loop-b', 301),
      '/loop-b': redirect('/loop-a', 301),
      '/self': redirect('/self', 302),
      ...chain('twenty', 20),
      ...chain('twenty-one', 21),
      '/crawl/': linksPage(['old-page.html']),
      '/crawl/old-page.html': redirect('/crawl/new/page.html', 301),
      '/crawl/new/page.html': linksPage(['from-new.html']),
      '/crawl/new/from-new.html': 'reached through a redirected page',
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

function checkOf(links: LinkEvent[], path: string): LinkEvent['check'] | undefined {
  return links.find((link) => link.url === site.url(path))?.check;
}

describe('redirects', () => {
  it('follows chains of every redirect status and reports the hops', async () => {
    const { links, done } = await collectScan({ url: site.url('/'), scanDepth: 1 }, { lookup });
    expect(done.status).toBe(ScanStatus.Complete);

    expect(urlOutcomes(links)).toEqual(
      [
        ['/moved', 'ok', 200],
        ['/chain/a', 'ok', 200],
        ['/relative/start', 'ok', 200],
        ['/to-missing', 'broken', FailureReason.NotFound],
        ['/to-external', 'ok', 200],
        ['/loop-a', 'broken', FailureReason.BadRequest],
        ['/self', 'broken', FailureReason.BadRequest],
        ['/twenty/0', 'ok', 200],
        ['/twenty-one/0', 'broken', FailureReason.BadRequest],
      ]
        .map(([path, state, detail]) => ({
          url: site.url(String(path)),
          state,
          detail,
          referenceCount: 1,
        }))
        .sort((a, b) => (a.url < b.url ? -1 : 1)),
    );

    const hop = (path: string, statusCode: number) => ({ url: site.url(path), statusCode });
    expect(checkOf(links, '/moved')).toMatchObject({
      finalUrl: site.url('/target.html'),
      redirects: [hop('/moved', 301)],
    });
    expect(checkOf(links, '/chain/a')).toMatchObject({
      finalUrl: site.url('/target.html'),
      redirects: [
        hop('/chain/a', 302),
        hop('/chain/b', 307),
        hop('/chain/c', 308),
        hop('/chain/d', 303),
      ],
    });
    expect(checkOf(links, '/relative/start')).toMatchObject({ finalUrl: site.url('/target.html') });
    expect(checkOf(links, '/to-external')).toMatchObject({
      finalUrl: other.url('/landing.html'),
      redirects: [hop('/to-external', 302)],
    });
    expect(checkOf(links, '/to-missing')).toMatchObject({
      statusCode: 404,
      redirects: [hop('/to-missing', 301)],
    });
    const twenty = checkOf(links, '/twenty/0');
    expect(twenty).toMatchObject({ finalUrl: site.url('/twenty/20') });
    expect(twenty?.state === 'ok' && twenty.redirects).toHaveLength(20);
  });

  it('says "redirect loop" or "too many redirects" in the message of a broken chain', async () => {
    const { links } = await collectScan({ url: site.url('/'), scanDepth: 1 }, { lookup });
    expect(checkOf(links, '/loop-a')).toMatchObject({
      message: expect.stringMatching(/redirect loop/i),
    });
    expect(checkOf(links, '/self')).toMatchObject({
      message: expect.stringMatching(/redirect loop/i),
    });
    expect(checkOf(links, '/twenty-one/0')).toMatchObject({
      message: expect.stringMatching(/too many redirects/i),
    });
    // Never more than 20 hops followed (as browsers): /twenty-one/21 is not asked for.
    expect(site.requestsFor('/twenty-one/21')).toEqual([]);
  });

  it('crawls a redirected page at its final address and resolves its links from there', async () => {
    const { pages, links } = await collectScan(
      { url: site.url('/crawl/'), scanDepth: 3 },
      { lookup },
    );
    expect(pages.map((page) => [page.url, page.finalUrl])).toEqual([
      [site.url('/crawl/'), site.url('/crawl/')],
      [site.url('/crawl/old-page.html'), site.url('/crawl/new/page.html')],
      [site.url('/crawl/new/from-new.html'), site.url('/crawl/new/from-new.html')],
    ]);
    const fromNew = links.find((link) => link.url === site.url('/crawl/new/from-new.html'));
    expect(fromNew).toMatchObject({
      source: site.url('/crawl/new/page.html'),
      url: site.url('/crawl/new/from-new.html'),
      check: { state: 'ok' },
    });
  });
});
