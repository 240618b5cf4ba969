// settings.excludeLinks: prefixes (case ignored unless caseSensitive), `regex:` patterns and file
// types. Excluded URLs are skipped and never requested; the start URL itself is never excluded.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  htmlPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'cdn.other.test']);
let site: TestSite;
let other: TestSite;

const internalLinks = [
  '/private/secret.html',
  '/PRIVATE/upper.html',
  '/archive/2020/old.html',
  '/archive/latest.html',
  '/files/report.pdf',
  '/files/notes.txt',
  '/page?sessionid=abc',
  '/public.html',
];

beforeAll(async () => {
  other = await startTestSite({ '/tracker.js': 'void 0;' }, { host: 'cdn.other.test' });
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          ...internalLinks.map((href) => `<a href="${href}">${href}</a>`),
          `<script src="${other.url('/tracker.js')}"></script>`,
        ].join('\n'),
      ),
    },
    { host: 'site.test', fallback: 'a page' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

const excluded = (path: string) => ({
  url: site.url(path),
  state: 'skipped',
  detail: 'excluded',
  referenceCount: 1,
});
const ok = (path: string) => ({ url: site.url(path), state: 'ok', detail: 200, referenceCount: 1 });

describe('exclusions', () => {
  it('skips URLs matching a prefix, a regex: or a file type, and never requests them', async () => {
    const before = site.requests.length;
    const { links, done } = await collectScan(
      {
        url: site.url('/'),
        scanDepth: 3,
        excludeLinks: [
          { link: site.url('/private/') },
          { link: 'regex:/archive/\\d{4}/' },
          { link: 'regex:[?&]sessionid=' },
          { link: '*.pdf' },
          { link: '.txt' },
          { link: other.url('/') },
        ],
      },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(urlOutcomes(links)).toEqual([
      { url: other.url('/tracker.js'), state: 'skipped', detail: 'excluded', referenceCount: 1 },
      excluded('/PRIVATE/upper.html'),
      excluded('/archive/2020/old.html'),
      ok('/archive/latest.html'),
      excluded('/files/notes.txt'),
      excluded('/files/report.pdf'),
      excluded('/page?sessionid=abc'),
      excluded('/private/secret.html'),
      ok('/public.html'),
    ]);
    expect(
      site.requests
        .slice(before)
        .map((r) => r.path)
        .filter((p) => p !== '/robots.txt')
        .sort(),
    ).toEqual(['/', '/archive/latest.html', '/public.html']);
    expect(other.requests).toEqual([]);
  });

  it('matches prefixes case-sensitively when caseSensitive is on', async () => {
    const { links } = await collectScan(
      { url: site.url('/'), caseSensitive: true, excludeLinks: [{ link: site.url('/private/') }] },
      { lookup },
    );
    const outcomes = urlOutcomes(links);
    expect(outcomes).toContainEqual(excluded('/private/secret.html'));
    expect(outcomes).toContainEqual(ok('/PRIVATE/upper.html'));
  });

  it('never excludes the start URL, even when an entry matches it', async () => {
    for (const link of [site.url('/'), 'regex:.*']) {
      const { pages, links, done } = await collectScan(
        { url: site.url('/'), excludeLinks: [{ link }] },
        { lookup },
      );
      expect(done.status, link).toBe(ScanStatus.Complete);
      expect(
        pages.map((page) => page.url),
        link,
      ).toEqual([site.url('/')]);
      const internal = links.filter((l) => l.internal);
      expect(internal.length, link).toBe(internalLinks.length);
      expect(
        internal.every((l) => l.check.state === 'skipped' && l.check.cause === 'excluded'),
        link,
      ).toBe(true);
    }
  });
});
