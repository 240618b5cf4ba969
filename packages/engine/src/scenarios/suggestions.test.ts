// Suggested fixes (issue 27): each kind on a site made for it, and no guess where two candidates
// are about as good (a wrong fix is worse than none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suggestion } from '@linkaudit/core';
import type { SuggestionEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  redirect,
  startTestSite,
  testCertificates,
  type CollectedScan,
  type TestSite,
} from '../test-support/index.js';

const names = ['site.test', 'twin.test', 'plain.test', 'selfsigned.test'];
const lookup = createLookup(names);
const certificates = testCertificates(names);
let site: TestSite;
let twin: TestSite;
let plain: TestSite;
let selfSigned: TestSite;
let scan: CollectedScan;

const link = (href: string, text = href) => `<a href="${href}">${text}</a>`;

beforeAll(async () => {
  twin = await startTestSite(
    { '/page.html': htmlPage('same', '<title>Twin page</title>') },
    { tls: certificates.trusted, host: 'twin.test' },
  );
  plain = await startTestSite({ '/page.html': htmlPage('plain only') }, { host: 'plain.test' });
  selfSigned = await startTestSite(
    { '/x.html': 'self-signed' },
    { tls: certificates.selfSigned, host: 'selfsigned.test' },
  );
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          link('/moved'),
          link('/chain/a'),
          link('/docs/getting-startd.html'),
          link('/old/pricing.html'),
          link('/company', 'About our team'),
          link('/reports/report-2024.html'),
          link('/guide.html#instalation'),
          link('/faq.html#q'),
          link('/docs/getting-started.html'),
          link('/plans/pricing.html'),
          link('/who-we-are.html'),
          link('/reports/report-2023.html'),
          link('/reports/report-2025.html'),
          link(twin.url('/page.html', { protocol: 'http' })),
          link(plain.url('/page.html')),
          link(selfSigned.url('/x.html')),
          link('/slow'),
          link('http://gone.invalid/page.html'),
        ].join('\n'),
      ),
      '/moved': redirect('/target.html', 301),
      '/chain/a': redirect('/chain/b', 302),
      '/chain/b': redirect('/target.html', 301),
      '/target.html': htmlPage('target'),
      '/docs/getting-started.html': htmlPage('start', '<title>Start here</title>'),
      '/plans/pricing.html': htmlPage('prices', '<title>Prices</title>'),
      '/who-we-are.html': htmlPage('team', '<title>About our team</title>'),
      '/reports/report-2023.html': htmlPage('2023'),
      '/reports/report-2025.html': htmlPage('2025'),
      '/guide.html': htmlPage('<h2 id="installation">Install</h2><h2 id="usage">Use</h2>'),
      '/faq.html': htmlPage('<p id="q1">one</p><p id="q2">two</p>'),
      '/slow': { body: 'too late', delayMs: 10_000 },
    },
    { host: 'site.test' },
  );
  scan = await collectScan(
    { url: site.url('/'), scanDepth: 3, checkAnchors: true },
    {
      lookup,
      ca: certificates.authority.cert,
      retries: 0,
      // Long enough for a loaded machine, short of /slow's 10 s.
      requestTimeoutMs: 2_500,
      suggestions: true,
    },
  );
}, 60_000);
afterAll(async () => {
  await Promise.all([site, twin, plain, selfSigned].map((server) => server.close()));
});

function suggestionFor(url: string, fragment?: string): Suggestion | undefined {
  return eventsOfType(scan.events, 'suggestion').find(
    (event: SuggestionEvent) => event.url === url && event.fragment === fragment,
  )?.suggestion;
}

describe('suggested fixes', () => {
  it('offers the final address of a redirect, and flags a chain of more than one hop', () => {
    expect(suggestionFor(site.url('/moved'))).toEqual({
      kind: 'redirect',
      basis: 'redirect',
      url: site.url('/target.html'),
      confidence: null,
      hops: 1,
    });
    expect(suggestionFor(site.url('/chain/a'))).toMatchObject({
      kind: 'redirect',
      basis: 'redirect-chain',
      url: site.url('/target.html'),
      hops: 2,
    });
  });

  it('offers the closest existing page for a missing one: by path, file name and link text', () => {
    expect(suggestionFor(site.url('/docs/getting-startd.html'))).toMatchObject({
      kind: 'closest-page',
      basis: 'path',
      url: site.url('/docs/getting-started.html'),
    });
    expect(suggestionFor(site.url('/old/pricing.html'))).toMatchObject({
      kind: 'closest-page',
      basis: 'file-name',
      url: site.url('/plans/pricing.html'),
      confidence: 0.9,
    });
    expect(suggestionFor(site.url('/company'))).toEqual({
      kind: 'closest-page',
      basis: 'title',
      url: site.url('/who-we-are.html'),
      confidence: 1,
      hops: null,
    });
    const guess = suggestionFor(site.url('/docs/getting-startd.html'));
    expect(guess?.confidence).toBeGreaterThan(0.9);
    expect(guess?.confidence).toBeLessThan(1);
  });

  it('makes no guess when two pages are about as close', () => {
    // report-2023 and report-2025 are one letter away each: neither clearly wins.
    expect(suggestionFor(site.url('/reports/report-2024.html'))).toBeUndefined();
    // q1 and q2 are as close to "q" as each other.
    expect(suggestionFor(site.url('/faq.html'), '#q')).toBeUndefined();
  });

  it('offers the closest id on the target page for a broken fragment', () => {
    const fix = suggestionFor(site.url('/guide.html'), '#instalation');
    expect(fix).toMatchObject({
      kind: 'closest-anchor',
      basis: 'anchor',
      url: `${site.url('/guide.html')}#installation`,
    });
    expect(fix?.confidence).toBeGreaterThan(0.8);
  });

  it('offers https for an http link whose host serves the same page securely, not otherwise', () => {
    const http = twin.url('/page.html', { protocol: 'http' });
    expect(suggestionFor(http)).toEqual({
      kind: 'https',
      basis: 'https',
      url: twin.url('/page.html', { protocol: 'https' }),
      confidence: null,
      hops: null,
    });
    expect(suggestionFor(plain.url('/page.html'))).toBeUndefined();
    // The site itself serves no https: none of its pages gets one.
    expect(suggestionFor(site.url('/target.html'))).toBeUndefined();
  });

  it('explains a bad certificate, a timeout and a DNS failure in plain words', () => {
    expect(suggestionFor(selfSigned.url('/x.html'))).toMatchObject({
      kind: 'explain',
      basis: 'certificate',
      url: null,
    });
    expect(suggestionFor(site.url('/slow'))).toMatchObject({ kind: 'explain', basis: 'timeout' });
    expect(suggestionFor('http://gone.invalid/page.html')).toMatchObject({
      kind: 'explain',
      basis: 'dns',
    });
  });

  it('is off unless asked for', async () => {
    const plainScan = await collectScan(
      { url: site.url('/'), scanDepth: 1 },
      { lookup, retries: 0, requestTimeoutMs: 700 },
    );
    expect(eventsOfType(plainScan.events, 'suggestion')).toEqual([]);
  });
});
