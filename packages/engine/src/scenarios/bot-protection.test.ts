// Bot protection (Cloudflare's `cf-mitigated: challenge`, LinkedIn's 999) says nothing about a
// link: it is unverified, never broken.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  cloudflareChallenge,
  collectScan,
  createLookup,
  linksPage,
  startTestSite,
  statusOnly,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'cdn.other.test']);
let site: TestSite;
let other: TestSite;

beforeAll(async () => {
  other = await startTestSite(
    { '/challenge': cloudflareChallenge, '/profile': statusOnly(999) },
    { host: 'cdn.other.test' },
  );
  site = await startTestSite(
    {
      '/': linksPage([
        other.url('/challenge'),
        other.url('/profile'),
        other.url('/profile#again'),
        '/ok',
      ]),
      '/ok': 'ok',
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

describe('bot protection', () => {
  it('reports challenge answers and status 999 as unverified, not broken', async () => {
    const { links, done } = await collectScan({ url: site.url('/') }, { lookup });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(brokenSummary(links)).toEqual([]);
    expect(urlOutcomes(links)).toEqual([
      {
        url: other.url('/challenge'),
        state: 'unverified',
        detail: 'bot-protection',
        referenceCount: 1,
      },
      {
        url: other.url('/profile'),
        state: 'unverified',
        detail: 'bot-protection',
        referenceCount: 2,
      },
      { url: site.url('/ok'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
    const statusOf = (url: string) => {
      const check = links.find((link) => link.url === url)?.check;
      return check?.state === 'unverified' ? check.statusCode : undefined;
    };
    expect([statusOf(other.url('/challenge')), statusOf(other.url('/profile'))]).toEqual([
      403, 999,
    ]);
    expect(done.summary).toMatchObject({
      brokenLinks: 0,
      uniqueBrokenLinks: 0,
      uniqueUnverifiedLinks: 2,
    });
  });
});
