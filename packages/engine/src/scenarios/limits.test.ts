// Where a scan stops early: the link limit and error limit (status 10), timeoutAfter (status 4),
// and cancellation through an AbortSignal (status 2, within a second).
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  linksPage,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

const range = (count: number, make: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i + 1));

beforeAll(async () => {
  site = await startTestSite(
    {
      '/many/': linksPage(['/many/', ...range(12, (i) => `/many/${i}.html`)]),
      '/errors/': linksPage([...range(10, (i) => `/errors/missing-${i}.html`), '/errors/ok.html']),
      '/errors/ok.html': 'ok',
      '/slow/': linksPage(range(20, (i) => `/slow/${i}.html`)),
      '/hanging/': linksPage(range(5, (i) => `/hanging/${i}.html`)),
    },
    { host: 'site.test' },
  );
  for (let i = 1; i <= 12; i++) site.routes[`/many/${i}.html`] = `page ${i}`;
  for (let i = 1; i <= 20; i++) site.routes[`/slow/${i}.html`] = { body: 'slow', delayMs: 400 };
  for (let i = 1; i <= 5; i++)
    site.routes[`/hanging/${i}.html`] = { body: 'never', delayMs: 60_000 };
});
afterAll(() => site.close());

/** Paths under `prefix` the site was asked for since `before`. */
function requestedSince(before: number, prefix: string): Set<string> {
  return new Set(
    site.requests
      .slice(before)
      .map((r) => r.path)
      .filter((path) => path.startsWith(prefix)),
  );
}

/** Links whose URL was never requested must say so: skipped, cause limit. */
function expectUnrequestedSkipped(links: LinkEvent[], requested: Set<string>): void {
  for (const link of links) {
    const path = new URL(link.url).pathname;
    if (!requested.has(path))
      expect(link.check, path).toMatchObject({ state: 'skipped', cause: 'limit' });
  }
}

describe('link limit', () => {
  it('fetches at most maxLinkAmount unique URLs and stops with status 10', async () => {
    const before = site.requests.length;
    const { links, done } = await collectScan(
      { url: site.url('/many/'), scanLimitOption: 1, maxLinkAmount: 5 },
      { lookup },
    );
    expect(done).toMatchObject({ status: ScanStatus.OverMaxLinks, stoppedBy: 'link-limit' });
    const requested = requestedSince(before, '/many/');
    expect(requested.size).toBeLessThanOrEqual(5);
    expect(requested.size).toBeGreaterThanOrEqual(4);
    expect(done.summary.uniqueLinks).toBeLessThanOrEqual(5);
    expect(links).toHaveLength(13);
    expectUnrequestedSkipped(links, requested);
    for (const link of links.filter((l) => requested.has(new URL(l.url).pathname))) {
      expect(link.check.state, link.url).toBe('ok');
    }
  });
});

describe('error limit', () => {
  it('stops with status 10 once maxErrorCount broken URLs are found', async () => {
    const before = site.requests.length;
    const { links, done } = await collectScan(
      { url: site.url('/errors/'), maxErrorCount: 3, maxThreadCount: 1 },
      { lookup },
    );
    expect(done).toMatchObject({ status: ScanStatus.OverMaxLinks, stoppedBy: 'error-limit' });
    expect(done.summary.uniqueBrokenLinks).toBeGreaterThanOrEqual(3);
    expect(done.summary.uniqueBrokenLinks).toBeLessThan(10);
    expect(links).toHaveLength(11);
    expect(links.some((link) => link.check.state === 'skipped')).toBe(true);
    expectUnrequestedSkipped(links, requestedSince(before, '/errors/'));
  });
});

describe('timeoutAfter', () => {
  it('stops with status 4 after the time allowed, keeping what was checked', async () => {
    const before = site.requests.length;
    const started = performance.now();
    // 0.0005 h = 1.8 s; twenty 0.4 s answers two at a time need 4 s.
    const { links, done } = await collectScan(
      { url: site.url('/slow/'), timeoutAfter: 0.0005, maxThreadCount: 2 },
      { lookup },
    );
    const elapsed = performance.now() - started;
    expect(done).toMatchObject({ status: ScanStatus.Timeout, stoppedBy: 'timeout' });
    expect(elapsed).toBeGreaterThan(1_500);
    expect(elapsed).toBeLessThan(3_500);
    expect(links).toHaveLength(20);
    const states = links.map((link) =>
      link.check.state === 'skipped' ? link.check.cause : link.check.state,
    );
    expect(states).toContain('ok');
    expect(states).toContain('limit');
    expect(new Set(states)).toEqual(new Set(['ok', 'limit']));
    expectUnrequestedSkipped(links, requestedSince(before, '/slow/'));
  });
});

describe('cancellation', () => {
  it('ends with status 2 within a second of the abort, even with slow answers in flight', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const waitForHanging = setInterval(() => {
      if (site.requests.some((r) => r.path.startsWith('/hanging/')) && !controller.signal.aborted) {
        abortedAt = performance.now();
        controller.abort();
      }
    }, 10);
    try {
      const { links, done } = await collectScan(
        { url: site.url('/hanging/') },
        { lookup, signal: controller.signal, requestTimeoutMs: 120_000 },
      );
      expect(abortedAt).toBeGreaterThan(0);
      expect(performance.now() - abortedAt).toBeLessThan(1_000);
      expect(done).toMatchObject({ status: ScanStatus.Cancelled, stoppedBy: 'cancelled' });
      // A request cut short by the cancel says nothing about its link.
      expect(links.filter((link) => link.check.state === 'broken')).toEqual([]);
    } finally {
      clearInterval(waitForHanging);
    }
  });

  it('ends at once with status 2 when the signal is already aborted', async () => {
    const started = performance.now();
    const { done } = await collectScan(
      { url: site.url('/hanging/') },
      { lookup, signal: AbortSignal.abort() },
    );
    expect(done.status).toBe(ScanStatus.Cancelled);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
