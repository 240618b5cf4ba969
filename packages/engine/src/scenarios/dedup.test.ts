// Each unique URL (fragment aside) is fetched once however often it is linked; caseSensitive
// decides whether URLs differing only in case are one URL.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  collectScan,
  createLookup,
  htmlPage,
  linksPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'cdn.other.test']);
let site: TestSite;
let other: TestSite;

beforeAll(async () => {
  other = await startTestSite({ '/lib.js': 'void 0;' }, { host: 'cdn.other.test' });
  const lib = other.url('/lib.js');
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<a href="/page.html">page</a>',
          '<a href="/page.html#intro">intro</a>',
          '<a href="/page.html#usage">usage</a>',
          '<a href="/missing.html">missing</a>',
          '<a href="/missing.html#a">missing again</a>',
          `<script src="${lib}"></script>`,
          `<a href="${lib}">the same script as a link</a>`,
        ].join('\n'),
      ),
      '/page.html': linksPage(['/', '/missing.html', lib, '/other.html']),
      '/other.html': linksPage(['/page.html', '/missing.html']),
      '/case/': linksPage(['/case/Docs.html', '/case/docs.html', '/case/DOCS.html']),
      '/case/Docs.html': 'Docs',
      '/case/docs.html': 'docs',
      '/case/DOCS.html': 'DOCS',
      '/case-sensitive/': linksPage([
        '/case-sensitive/Docs.html',
        '/case-sensitive/docs.html',
        '/case-sensitive/DOCS.html',
      ]),
      '/case-sensitive/Docs.html': 'only this spelling exists',
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

describe('deduplication', () => {
  it('fetches each unique URL once, however many times and with whatever fragments it is linked', async () => {
    const { links, done } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    expect(done.status).toBe(ScanStatus.Complete);
    for (const path of ['/', '/page.html', '/other.html', '/missing.html']) {
      expect(site.requestsFor(path), path).toHaveLength(1);
    }
    expect(other.requestsFor('/lib.js')).toHaveLength(1);
    expect(brokenSummary(links)).toEqual([
      {
        url: site.url('/missing.html'),
        reason: FailureReason.NotFound,
        statusCode: 404,
        referenceCount: 4,
      },
    ]);
    expect(urlOutcomes(links)).toEqual([
      { url: other.url('/lib.js'), state: 'ok', detail: 200, referenceCount: 3 },
      { url: site.url('/'), state: 'ok', detail: 200, referenceCount: 1 },
      {
        url: site.url('/missing.html'),
        state: 'broken',
        detail: FailureReason.NotFound,
        referenceCount: 4,
      },
      { url: site.url('/other.html'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: site.url('/page.html'), state: 'ok', detail: 200, referenceCount: 4 },
    ]);
    expect(
      links
        .filter((link) => link.url === site.url('/page.html'))
        .map((link) => link.target)
        .sort(),
    ).toEqual([
      site.url('/page.html'),
      site.url('/page.html'),
      site.url('/page.html#intro'),
      site.url('/page.html#usage'),
    ]);
  });

  it('treats URLs differing only in case as one URL when caseSensitive is off', async () => {
    const { links } = await collectScan(
      { url: site.url('/case/'), caseSensitive: false },
      { lookup },
    );
    const requested = site.requests.filter((r) => r.path.toLowerCase() === '/case/docs.html');
    expect(new Set(requested.map((r) => r.path)).size).toBe(1);
    expect(links).toHaveLength(3);
    expect(links.every((link) => link.check.state === 'ok')).toBe(true);
  });

  it('treats them as separate URLs when caseSensitive is on', async () => {
    const { links } = await collectScan(
      { url: site.url('/case-sensitive/'), caseSensitive: true },
      { lookup },
    );
    expect(
      site
        .requestedPaths()
        .filter((path) => path.startsWith('/case-sensitive/'))
        .sort(),
    ).toEqual([
      '/case-sensitive/',
      '/case-sensitive/DOCS.html',
      '/case-sensitive/Docs.html',
      '/case-sensitive/docs.html',
    ]);
    expect(brokenSummary(links)).toEqual([
      {
        url: site.url('/case-sensitive/DOCS.html'),
        reason: FailureReason.NotFound,
        statusCode: 404,
        referenceCount: 1,
      },
      {
        url: site.url('/case-sensitive/docs.html'),
        reason: FailureReason.NotFound,
        statusCode: 404,
        referenceCount: 1,
      },
    ]);
  });
});
