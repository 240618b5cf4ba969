// robots.txt of the start origin: disallowed internal URLs are skipped (cause robots) and never
// requested, unless the scan turns respectRobotsTxt off. Other hosts' robots.txt do not apply.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  linksPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'cdn.other.test', 'linkaudit-group.test']);
let site: TestSite;
let other: TestSite;
let groupSite: TestSite;

const robotsTxt = (text: string) => ({ headers: { 'content-type': 'text/plain' }, body: text });

beforeAll(async () => {
  other = await startTestSite(
    {
      '/robots.txt': robotsTxt('User-agent: *\nDisallow: /\n'),
      '/private/external.html': 'an external page: its own robots.txt is not ours to obey',
    },
    { host: 'cdn.other.test' },
  );
  site = await startTestSite(
    {
      '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private/\n'),
      '/': linksPage(['/private/a.html', '/public.html', other.url('/private/external.html')]),
      '/public.html': linksPage(['/private/b.html', '/public-child.html']),
      '/public-child.html': 'leaf',
      '/private/a.html': linksPage(['/private/a-child.html']),
      '/private/b.html': 'private b',
      '/private/a-child.html': 'private child',
    },
    { host: 'site.test' },
  );
  // A group for LinkAudit replaces the * group for us (RFC 9309: the most specific group applies).
  groupSite = await startTestSite(
    {
      '/robots.txt': robotsTxt(
        'User-agent: LinkAudit\nDisallow: /not-for-linkaudit/\n\nUser-agent: *\nDisallow: /not-for-others/\n',
      ),
      '/': linksPage(['/not-for-linkaudit/page.html', '/not-for-others/page.html']),
      '/not-for-linkaudit/page.html': 'hidden from LinkAudit',
      '/not-for-others/page.html': 'open to LinkAudit',
    },
    { host: 'linkaudit-group.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
  await groupSite.close();
});

describe('robots.txt', () => {
  it('skips disallowed internal URLs without requesting them', async () => {
    const before = site.requests.length;
    const { links, done } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(urlOutcomes(links)).toEqual([
      { url: other.url('/private/external.html'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: site.url('/private/a.html'), state: 'skipped', detail: 'robots', referenceCount: 1 },
      { url: site.url('/private/b.html'), state: 'skipped', detail: 'robots', referenceCount: 1 },
      { url: site.url('/public-child.html'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: site.url('/public.html'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
    const requested = site.requests.slice(before).map((r) => r.path);
    expect(requested.filter((path) => path.startsWith('/private/'))).toEqual([]);
  });

  it('fetches them when respectRobotsTxt is off', async () => {
    const { links } = await collectScan(
      { url: site.url('/'), scanDepth: 3, respectRobotsTxt: false },
      { lookup },
    );
    expect(urlOutcomes(links).map((outcome) => [outcome.url, outcome.state])).toEqual([
      [other.url('/private/external.html'), 'ok'],
      [site.url('/private/a-child.html'), 'ok'],
      [site.url('/private/a.html'), 'ok'],
      [site.url('/private/b.html'), 'ok'],
      [site.url('/public-child.html'), 'ok'],
      [site.url('/public.html'), 'ok'],
    ]);
  });

  it('obeys the group that names LinkAudit instead of the * group', async () => {
    const { links } = await collectScan({ url: groupSite.url('/'), scanDepth: 3 }, { lookup });
    expect(urlOutcomes(links)).toEqual([
      {
        url: groupSite.url('/not-for-linkaudit/page.html'),
        state: 'skipped',
        detail: 'robots',
        referenceCount: 1,
      },
      {
        url: groupSite.url('/not-for-others/page.html'),
        state: 'ok',
        detail: 200,
        referenceCount: 1,
      },
    ]);
    expect(groupSite.requestsFor('/not-for-linkaudit/page.html')).toEqual([]);
  });
});
