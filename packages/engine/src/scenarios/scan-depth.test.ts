// What gets crawled: scanDepth 1 (the start page), 2 (its folder, after redirects), 3 (the whole
// site); maxDepth; only HTML answers are parsed.
import { fileURLToPath } from 'node:url';
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  linksPage,
  redirect,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;
let staticSite: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      // Folder scans take the folder of the final start address: /docs/intro/.
      '/start': redirect('/docs/intro/index.html', 302),
      '/docs/intro/index.html': linksPage([
        'page1.html',
        'sub/page2.html',
        '/docs/other.html',
        '/docs/introduction.html',
        '/',
      ]),
      '/docs/intro/page1.html': linksPage(['child.html']),
      '/docs/intro/sub/page2.html': 'page 2',
      '/docs/intro/child.html': 'child',
      '/docs/other.html': linksPage(['/docs/other-child.html']),
      '/docs/introduction.html': linksPage(['/docs/introduction-child.html']),
      '/': linksPage(['/root-child.html']),
      '/docs/other-child.html': 'leaf',
      '/docs/introduction-child.html': 'leaf',
      '/root-child.html': 'leaf',

      '/chain/1.html': linksPage(['2.html']),
      '/chain/2.html': linksPage(['3.html']),
      '/chain/3.html': linksPage(['4.html']),
      '/chain/4.html': 'too deep to be reached',

      '/types/index.html': linksPage([
        'page.xhtml',
        'upper-case-type.html',
        'feed.xml',
        'notes.txt',
        'data.json',
      ]),
      '/types/page.xhtml': {
        headers: { 'content-type': 'application/xhtml+xml' },
        body: '<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="from-xhtml.html">x</a></body></html>',
      },
      '/types/upper-case-type.html': {
        headers: { 'content-type': 'Text/HTML; Charset=UTF-8' },
        body: linksPage(['from-html.html']),
      },
      '/types/feed.xml': {
        headers: { 'content-type': 'application/xml' },
        body: '<feed><a href="from-xml.html">x</a></feed>',
      },
      '/types/notes.txt': {
        headers: { 'content-type': 'text/plain' },
        body: '<a href="from-txt.html">not a link in plain text</a>',
      },
      '/types/data.json': {
        headers: { 'content-type': 'application/json' },
        body: '{"html": "<a href=\\"from-json.html\\">x</a>"}',
      },
      '/types/from-xhtml.html': 'leaf',
      '/types/from-html.html': 'leaf',
    },
    { host: 'site.test' },
  );
  staticSite = await startTestSite(
    {},
    {
      host: 'site.test',
      folder: fileURLToPath(new URL('../../test-sites/static-site/', import.meta.url)),
    },
  );
});
afterAll(async () => {
  await site.close();
  await staticSite.close();
});

const finalUrls = (pages: { finalUrl: string }[]) => pages.map((page) => page.finalUrl).sort();

describe('scanDepth 1: single page', () => {
  it('parses only the start page and checks its links without following them', async () => {
    const before = site.requests.length;
    const { pages, links, done } = await collectScan(
      { url: site.url('/start'), scanDepth: 1 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => [page.url, page.finalUrl, page.depth])).toEqual([
      [site.url('/start'), site.url('/docs/intro/index.html'), 1],
    ]);
    expect(urlOutcomes(links)).toEqual(
      [
        '/',
        '/docs/intro/page1.html',
        '/docs/intro/sub/page2.html',
        '/docs/introduction.html',
        '/docs/other.html',
      ]
        .map((path) => ({ url: site.url(path), state: 'ok', detail: 200, referenceCount: 1 }))
        .sort((a, b) => (a.url < b.url ? -1 : 1)),
    );
    const requested = site.requests.slice(before);
    expect(requested.filter((r) => r.path.includes('child'))).toEqual([]);
    // Checked, not crawled: HEAD is enough (only the start page and its redirect are GET).
    expect(
      requested.filter((r) => r.method === 'GET' && r.path !== '/robots.txt').map((r) => r.path),
    ).toEqual(['/start', '/docs/intro/index.html']);
  });
});

describe('scanDepth 2: folder', () => {
  it('crawls the final start URL folder and below; other internal pages are only checked', async () => {
    const before = site.requests.length;
    const { pages, links, done } = await collectScan(
      { url: site.url('/start'), scanDepth: 2 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(finalUrls(pages)).toEqual(
      [
        '/docs/intro/index.html',
        '/docs/intro/page1.html',
        '/docs/intro/sub/page2.html',
        '/docs/intro/child.html',
      ]
        .map((path) => site.url(path))
        .sort(),
    );
    expect(urlOutcomes(links).map((outcome) => [outcome.url, outcome.state])).toEqual(
      [
        '/',
        '/docs/intro/child.html',
        '/docs/intro/page1.html',
        '/docs/intro/sub/page2.html',
        '/docs/introduction.html',
        '/docs/other.html',
      ].map((path) => [site.url(path), 'ok']),
    );
    const requested = site.requests.slice(before).map((r) => r.path);
    // Outside the folder (even /docs/introduction.html, whose path merely starts alike): checked, not parsed.
    expect(requested).not.toContain('/docs/other-child.html');
    expect(requested).not.toContain('/docs/introduction-child.html');
    expect(requested).not.toContain('/root-child.html');
  });
});

describe('scanDepth 3: whole site', () => {
  it('crawls every internal page', async () => {
    const { pages, done } = await collectScan(
      { url: site.url('/start'), scanDepth: 3 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(finalUrls(pages)).toEqual(
      [
        '/',
        '/docs/intro/index.html',
        '/docs/intro/page1.html',
        '/docs/intro/sub/page2.html',
        '/docs/intro/child.html',
        '/docs/other.html',
        '/docs/introduction.html',
        '/docs/other-child.html',
        '/docs/introduction-child.html',
        '/root-child.html',
      ]
        .map((path) => site.url(path))
        .sort(),
    );
  });

  it('crawls a static fixture folder completely', async () => {
    const { pages, links, done } = await collectScan(
      { url: staticSite.url('/'), scanDepth: 3 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => [page.finalUrl, page.title, page.depth]).sort()).toEqual(
      [
        [staticSite.url('/'), 'Static site', 1],
        [staticSite.url('/about/'), 'About', 2],
        [staticSite.url('/about/team.html'), 'Team', 2],
      ].sort(),
    );
    expect(urlOutcomes(links)).toEqual([
      { url: staticSite.url('/'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: staticSite.url('/about/'), state: 'ok', detail: 200, referenceCount: 2 },
      { url: staticSite.url('/about/team.html'), state: 'ok', detail: 200, referenceCount: 2 },
      { url: staticSite.url('/assets/logo.png'), state: 'ok', detail: 200, referenceCount: 2 },
      {
        url: staticSite.url('/missing.html'),
        state: 'broken',
        detail: FailureReason.NotFound,
        referenceCount: 2,
      },
      { url: staticSite.url('/style.css'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
  });
});

describe('maxDepth', () => {
  it('parses pages down to maxDepth, checks the next level without parsing it, and goes no further', async () => {
    const { pages, links } = await collectScan(
      { url: site.url('/chain/1.html'), scanDepth: 3, maxDepth: 2 },
      { lookup },
    );
    expect(pages.map((page) => [page.url, page.depth])).toEqual([
      [site.url('/chain/1.html'), 1],
      [site.url('/chain/2.html'), 2],
    ]);
    expect(urlOutcomes(links)).toEqual([
      { url: site.url('/chain/2.html'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: site.url('/chain/3.html'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
    expect(site.requestsFor('/chain/4.html')).toEqual([]);
  });
});

describe('content types', () => {
  it('parses text/html and application/xhtml+xml answers only', async () => {
    const { pages, links } = await collectScan(
      { url: site.url('/types/index.html'), scanDepth: 3 },
      { lookup },
    );
    expect(finalUrls(pages)).toEqual(
      ['index.html', 'page.xhtml', 'upper-case-type.html', 'from-xhtml.html', 'from-html.html']
        .map((name) => site.url(`/types/${name}`))
        .sort(),
    );
    expect(urlOutcomes(links).map((outcome) => [outcome.url, outcome.state])).toEqual(
      [
        'data.json',
        'feed.xml',
        'from-html.html',
        'from-xhtml.html',
        'notes.txt',
        'page.xhtml',
        'upper-case-type.html',
      ].map((name) => [site.url(`/types/${name}`), 'ok']),
    );
    for (const unparsed of ['from-xml.html', 'from-txt.html', 'from-json.html']) {
      expect(site.requestsFor(`/types/${unparsed}`)).toEqual([]);
    }
  });
});
