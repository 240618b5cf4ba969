// Reference counts: how many link occurrences on the site point at each target URL, whatever the
// element, the fragment or the page they are on; a redirect's address is its own target.
import { FailureReason } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  collectScan,
  createLookup,
  htmlPage,
  redirect,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<a href="/a.html">a</a>',
          '<a href="/a.html#part">a, with a fragment</a>',
          '<map name="m"><area href="/a.html#other" alt="a, from an area"></map>',
          '<iframe src="/a.html"></iframe>',
          '<a href="/about.html">about</a>',
          '<a href="/missing.html">missing</a> <a href="/missing.html">missing again</a>',
          '<img src="/logo.png" alt="">',
          '<a href="mailto:team@site.test">mail</a> <a href="mailto:team@site.test">mail</a>',
        ].join('\n'),
      ),
      '/about.html': htmlPage(
        [
          '<a href="/a.html">a</a>',
          '<a href="/old">a, through a redirect</a>',
          '<a href="/missing.html">missing</a>',
          '<img src="/logo.png" alt="">',
          '<img src="/gone.png" alt="">',
        ].join('\n'),
      ),
      '/a.html': 'a',
      '/old': redirect('/a.html'),
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

describe('reference counts', () => {
  it('counts every link to each URL across pages, elements and fragments', async () => {
    const { links } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    const ok = (path: string, referenceCount: number) => ({
      url: site.url(path),
      state: 'ok',
      detail: 200,
      referenceCount,
    });
    expect(urlOutcomes(links)).toEqual([
      ok('/a.html', 5), // a, a#part, area#other, iframe on /; a on /about.html
      ok('/about.html', 1),
      {
        url: site.url('/gone.png'),
        state: 'broken',
        detail: FailureReason.NotFound,
        referenceCount: 1,
      },
      ok('/logo.png', 2),
      {
        url: site.url('/missing.html'),
        state: 'broken',
        detail: FailureReason.NotFound,
        referenceCount: 3,
      },
      ok('/old', 1),
      { url: 'mailto:team@site.test', state: 'skipped', detail: 'scheme', referenceCount: 2 },
    ]);
  });

  it('gives each broken URL its reference count', async () => {
    const { links } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    expect(brokenSummary(links)).toEqual([
      {
        url: site.url('/gone.png'),
        reason: FailureReason.NotFound,
        statusCode: 404,
        referenceCount: 1,
      },
      {
        url: site.url('/missing.html'),
        reason: FailureReason.NotFound,
        statusCode: 404,
        referenceCount: 3,
      },
    ]);
  });
});
