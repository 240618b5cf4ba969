// How targets are asked for: GET for pages we crawl (and internal stylesheets we read), HEAD
// first for everything else with GET when HEAD is refused or fails, and a User-Agent that names
// LinkAudit.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  collectScan,
  createLookup,
  headDropped,
  headRefused,
  htmlPage,
  linksPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'cdn.other.test', 'nohead.test', 'dropshead.test']);
let site: TestSite;
let other: TestSite;

beforeAll(async () => {
  other = await startTestSite(
    {
      '/lib.js': { headers: { 'content-type': 'text/javascript' }, body: 'void 0;' },
      '/refuses-head.html': headRefused('GET works'),
      '/drops-head.html': headDropped('GET works'),
    },
    { host: 'cdn.other.test' },
  );
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<link rel="stylesheet" href="/style.css">',
          '<a href="/page.html">page</a>',
          '<img src="/img.png" alt="">',
          `<script src="${other.url('/lib.js')}"></script>`,
          `<script src="${other.url('/missing.js')}"></script>`,
          `<a href="${other.url('/refuses-head.html', { host: 'nohead.test' })}">no HEAD</a>`,
          `<a href="${other.url('/drops-head.html', { host: 'dropshead.test' })}">HEAD dropped</a>`,
        ].join('\n'),
      ),
      '/page.html': linksPage(['/']),
      '/style.css': { headers: { 'content-type': 'text/css' }, body: 'p {}' },
      '/img.png': { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50]) },
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

describe('request methods', () => {
  it('GETs pages it crawls, HEADs what it only checks, and falls back to GET when HEAD fails', async () => {
    const { links, done } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });

    expect(done.status).toBe(ScanStatus.Complete);
    expect(brokenSummary(links)).toEqual([
      {
        url: other.url('/missing.js'),
        reason: FailureReason.NotFound,
        statusCode: 404,
        referenceCount: 1,
      },
    ]);
    expect(urlOutcomes(links).filter((outcome) => outcome.state !== 'broken')).toEqual(
      [
        { url: site.url('/'), state: 'ok', detail: 200, referenceCount: 1 },
        { url: site.url('/img.png'), state: 'ok', detail: 200, referenceCount: 1 },
        { url: site.url('/page.html'), state: 'ok', detail: 200, referenceCount: 1 },
        { url: site.url('/style.css'), state: 'ok', detail: 200, referenceCount: 1 },
        { url: other.url('/lib.js'), state: 'ok', detail: 200, referenceCount: 1 },
        {
          url: other.url('/refuses-head.html', { host: 'nohead.test' }),
          state: 'ok',
          detail: 200,
          referenceCount: 1,
        },
        {
          url: other.url('/drops-head.html', { host: 'dropshead.test' }),
          state: 'ok',
          detail: 200,
          referenceCount: 1,
        },
      ].sort((a, b) => (a.url < b.url ? -1 : 1)),
    );

    expect(site.methodsFor('/')).toEqual(['GET']);
    expect(site.methodsFor('/page.html')).toEqual(['GET']);
    // An internal stylesheet is read for its references (issue 35): one GET, no HEAD first.
    expect(site.methodsFor('/style.css')).toEqual(['GET']);
    expect(site.methodsFor('/img.png')).toEqual(['HEAD']);
    expect(other.methodsFor('/lib.js')).toEqual(['HEAD']);
    expect(other.methodsFor('/missing.js')).toEqual(['HEAD', 'GET']);
    expect(other.methodsFor('/refuses-head.html')).toEqual(['HEAD', 'GET']);
    const dropped = other.methodsFor('/drops-head.html');
    expect(dropped[0]).toBe('HEAD');
    expect(dropped.at(-1)).toBe('GET');
  });

  it('sends a User-Agent containing LinkAudit with every request, to every host', async () => {
    await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    const requests = [...site.requests, ...other.requests];
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(request.headers['user-agent']).toContain('LinkAudit');
  });
});
