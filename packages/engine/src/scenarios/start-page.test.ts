// The start URL: where a scan begins, what happens when it redirects, and when it cannot be read.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  collectScan,
  createLookup,
  linksPage,
  redirect,
  startTestSite,
  statusOnly,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'refused.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': linksPage(['/ok.html']),
      '/ok.html': '<title>ok</title>',
      '/error-start': statusOnly(500),
      '/forbidden-start': statusOnly(403),
      '/moved-start': redirect('/landing/index.html', 302),
      '/landing/index.html': linksPage(['next.html']),
      '/landing/next.html': 'next',
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

describe('a start page that answers', () => {
  it('is settings.url: parsed as the depth-1 page, its links checked, the scan complete', async () => {
    const { pages, links, done } = await collectScan({ url: site.url('/') }, { lookup });

    expect(done.status).toBe(ScanStatus.Complete);
    expect(done.error).toBeUndefined();
    expect(pages).toEqual([
      expect.objectContaining({
        url: site.url('/'),
        finalUrl: site.url('/'),
        statusCode: 200,
        depth: 1,
        linkCount: 1,
        contentType: expect.stringMatching(/^text\/html/),
      }),
    ]);
    expect(links).toEqual([
      expect.objectContaining({
        source: site.url('/'),
        target: site.url('/ok.html'),
        url: site.url('/ok.html'),
        internal: true,
        check: expect.objectContaining({ state: 'ok', statusCode: 200 }),
      }),
    ]);
  });

  it('is followed through redirects, and its links resolve against the final URL', async () => {
    const { pages, links, done } = await collectScan({ url: site.url('/moved-start') }, { lookup });

    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => [page.finalUrl, page.depth])).toEqual([
      [site.url('/landing/index.html'), 1],
    ]);
    expect(links.map((link) => [link.source, link.target])).toEqual([
      [site.url('/landing/index.html'), site.url('/landing/next.html')],
    ]);
    expect(urlOutcomes(links)).toEqual([
      { url: site.url('/landing/next.html'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
  });
});

describe('a start page that cannot be fetched fails the scan (status 3, error set)', () => {
  async function expectFailed(url: string): Promise<void> {
    const { pages, links, done } = await collectScan({ url }, { lookup });
    expect(done.status).toBe(ScanStatus.Failed);
    expect(done.error).toEqual(expect.stringMatching(/\S/));
    expect(pages).toEqual([]);
    expect(links).toEqual([]);
    expect(done.summary.pages).toBe(0);
  }

  it('when it answers 404', () => expectFailed(site.url('/no-such-page')));
  it('when it answers 500', () => expectFailed(site.url('/error-start')));
  it('when it answers 403', () => expectFailed(site.url('/forbidden-start')));
  it('when its host does not resolve (.invalid)', () => expectFailed('http://nowhere.invalid/'));
  it('when its host is unknown to DNS', () => expectFailed(`http://unknown.test:${site.port}/`));
  it('when its port refuses connections', async () => {
    await expectFailed(`http://refused.test:${await closedPort()}/`);
  });
});
