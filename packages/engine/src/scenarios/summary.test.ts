// done.summary agrees with the events it sums up; progress only grows; scan() yields the same
// events as runScan, ending with done.
import { defaultScanRequest, FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSettingsFor, scan, type ScanEvent } from '../index.js';
import {
  brokenSummary,
  cloudflareChallenge,
  collectScan,
  createLookup,
  fastEngineOptions,
  htmlPage,
  linksPage,
  redirect,
  startTestSite,
  statusOnly,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<a href="/">home</a>',
          '<a href="/about.html">about</a>',
          '<a href="/missing.html">missing</a>',
          '<img src="/moved-logo.png" alt="">',
          '<a href="mailto:team@site.test">mail</a>',
          '<a href="/excluded/page.html">excluded</a>',
          '<a href="/challenge">challenge</a>',
        ].join('\n'),
      ),
      '/about.html': linksPage(['/', '/missing.html', '/error.html']),
      '/moved-logo.png': redirect('/logo.png'),
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
      '/error.html': statusOnly(500),
      '/challenge': cloudflareChallenge,
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

const settings = () => ({
  url: site.url('/'),
  scanDepth: 3 as const,
  excludeLinks: [{ link: site.url('/excluded/') }],
});

describe('scan summary', () => {
  it('counts pages, links and failures exactly as the events show them', async () => {
    const { events, pages, links, progress, done } = await collectScan(settings(), { lookup });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(events.at(-1)).toEqual(done);

    expect(done.summary).toMatchObject({
      startUrl: site.url('/'),
      pages: 2,
      // Fetched: /, /about.html, /missing.html, /moved-logo.png, /challenge, /error.html.
      uniqueLinks: 6,
      totalLinks: 10,
      brokenLinks: 3,
      uniqueBrokenLinks: 2,
      uniqueUnverifiedLinks: 1,
      reasons: { [FailureReason.NotFound]: 1, [FailureReason.InternalServerError]: 1 },
    });
    expect(done.summary.durationMs).toBeGreaterThanOrEqual(0);

    // The same numbers, derived from the events.
    const fetched = new Set(
      links.filter((link) => link.check.state !== 'skipped').map((link) => link.url),
    );
    expect(done.summary.pages).toBe(pages.length);
    expect(done.summary.uniqueLinks).toBe(fetched.size);
    expect(done.summary.totalLinks).toBe(links.length);
    expect(done.summary.brokenLinks).toBe(
      links.filter((link) => link.check.state === 'broken').length,
    );
    expect(done.summary.uniqueBrokenLinks).toBe(brokenSummary(links).length);

    for (let i = 1; i < progress.length; i++) {
      const [previous, current] = [progress[i - 1]!, progress[i]!];
      expect(current.processed).toBeGreaterThanOrEqual(previous.processed);
      expect(current.links).toBeGreaterThanOrEqual(previous.links);
      expect(current.pages).toBeGreaterThanOrEqual(previous.pages);
    }
    const last = progress.at(-1);
    if (last) {
      expect(last.pages).toBeLessThanOrEqual(pages.length);
      expect(last.broken).toBeLessThanOrEqual(done.summary.uniqueBrokenLinks);
    }
  });

  it('yields the same events from scan(), ending with done', async () => {
    const events: ScanEvent[] = [];
    for await (const event of scan(crawlSettingsFor(defaultScanRequest(settings())), {
      ...fastEngineOptions,
      lookup,
    }))
      events.push(event);
    const last = events.at(-1);
    expect(last?.type).toBe('done');
    expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'link')).toHaveLength(10);
    expect(events.filter((event) => event.type === 'page')).toHaveLength(2);
  });
});
