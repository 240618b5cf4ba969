// Transient failures are retried (timeouts, 5xx, dropped connections); 429 waits for Retry-After;
// what still fails after the retries is broken with the matching reason. One attempt budget per
// URL: HEAD, GET and retries together (retry-policy.ts).
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  collectScan,
  connectionReset,
  createLookup,
  headRefused,
  linksPage,
  sequence,
  startTestSite,
  statusOnly,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
const retries = 2;
let site: TestSite;

const flaky = ['/flaky-503', '/flaky-500', '/flaky-reset', '/rate-limited', '/slow-but-in-time'];
const failing = ['/always-503', '/always-500', '/always-reset', '/always-429'];

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': linksPage([...flaky, ...failing]),
      '/slow': linksPage(['/too-slow']),
      '/budget': linksPage(['/keeps-dropping', '/keeps-failing', '/head-refused']),
      '/keeps-dropping': connectionReset,
      '/keeps-failing': statusOnly(502),
      '/head-refused': headRefused('works with GET'),
      '/waiting': linksPage(['/fails-once', '/b1', '/b2', '/b3', '/b4']),
      '/fails-once': sequence(statusOnly(503), 'ok'),
      '/b1': 'ok',
      '/b2': 'ok',
      '/b3': 'ok',
      '/b4': 'ok',
      '/flaky-503': sequence(statusOnly(503), 'ok'),
      '/flaky-500': sequence(statusOnly(500), 'ok'),
      '/flaky-reset': sequence(connectionReset, 'ok'),
      '/rate-limited': sequence(statusOnly(429, { 'retry-after': '1' }), 'ok'),
      '/slow-but-in-time': { body: 'ok', delayMs: 150 },
      '/always-503': statusOnly(503),
      '/always-500': statusOnly(500),
      '/always-reset': connectionReset,
      '/always-429': statusOnly(429, { 'retry-after': '0' }),
      '/too-slow': { body: 'never in time', delayMs: 20_000 },
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

describe('retries', () => {
  it('retries transient failures (honouring Retry-After) and reports what keeps failing', async () => {
    const { links, done } = await collectScan(
      { url: site.url('/'), scanDepth: 1 },
      { lookup, retries, retryBaseDelayMs: 10 },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(
      urlOutcomes(links)
        .filter((outcome) => outcome.state === 'ok')
        .map((o) => o.url),
    ).toEqual(flaky.map((path) => site.url(path)).sort());
    // 429 to the end says nothing about the link: Unverified, rate-limited (issue 35).
    expect(links.find((link) => link.url === site.url('/always-429'))?.check).toMatchObject({
      state: 'unverified',
      cause: 'rate-limited',
      statusCode: 429,
    });
    expect(brokenSummary(links)).toEqual([
      {
        url: site.url('/always-500'),
        reason: FailureReason.InternalServerError,
        statusCode: 500,
        referenceCount: 1,
      },
      {
        url: site.url('/always-503'),
        reason: FailureReason.ServiceUnavailable,
        statusCode: 503,
        referenceCount: 1,
      },
      {
        url: site.url('/always-reset'),
        reason: FailureReason.ServiceUnavailable,
        statusCode: undefined,
        referenceCount: 1,
      },
    ]);

    for (const path of ['/flaky-503', '/flaky-500', '/flaky-reset', '/rate-limited']) {
      expect(site.requestsFor(path).length, path).toBeGreaterThanOrEqual(2);
    }
    // A failing URL is asked `retries` + 1 times in all: HEAD, then the retries as GET.
    for (const path of ['/always-503', '/always-500', '/always-reset']) {
      expect(site.methodsFor(path), path).toEqual(['HEAD', 'GET', 'GET']);
    }
    // A 429 is the host's, not the URL's: it waits out the host's pauses, at most 5 times.
    expect(site.methodsFor('/always-429')).toEqual(['HEAD', 'GET', 'GET', 'GET', 'GET', 'GET']);

    // 429 with Retry-After: 1 (seconds): the next request waited that long.
    const [first, second] = site.requestsFor('/rate-limited');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('reports a server slower than the request timeout as Time Out', async () => {
    const started = performance.now();
    const { links } = await collectScan(
      { url: site.url('/slow'), scanDepth: 1 },
      { lookup, retries: 1, retryBaseDelayMs: 10, requestTimeoutMs: 500 },
    );
    expect(brokenSummary(links)).toEqual([
      {
        url: site.url('/too-slow'),
        reason: FailureReason.TimeOut,
        statusCode: undefined,
        referenceCount: 1,
      },
    ]);
    expect(site.requestsFor('/too-slow').length).toBeGreaterThanOrEqual(2);
    // At most HEAD and GET, each tried twice, at 0.5 s each: far from the server's 20 s.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('asks a URL that timed out once more at most, whatever the number of retries', async () => {
    const before = site.requestsFor('/too-slow').length;
    await collectScan(
      { url: site.url('/slow'), scanDepth: 1 },
      { lookup, retries: 3, retryBaseDelayMs: 10, requestTimeoutMs: 300 },
    );
    expect(
      site
        .requestsFor('/too-slow')
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['HEAD', 'GET']);
  });

  it('spends one budget per URL: no GET fallback after a dropped connection or a 5xx', async () => {
    const { links } = await collectScan(
      { url: site.url('/budget'), scanDepth: 1 },
      { lookup, retries, retryBaseDelayMs: 10 },
    );
    expect(urlOutcomes(links)).toEqual([
      { url: site.url('/head-refused'), state: 'ok', detail: 200, referenceCount: 1 },
      {
        url: site.url('/keeps-dropping'),
        state: 'broken',
        detail: FailureReason.ServiceUnavailable,
        referenceCount: 1,
      },
      {
        url: site.url('/keeps-failing'),
        state: 'broken',
        detail: FailureReason.ServiceUnavailable,
        referenceCount: 1,
      },
    ]);
    // (the engine used to ask HEAD three times, then GET three times: 6 requests)
    expect(site.requestsFor('/keeps-dropping')).toHaveLength(retries + 1);
    expect(site.requestsFor('/keeps-failing')).toHaveLength(retries + 1);
    expect(site.methodsFor('/head-refused')).toEqual(['HEAD', 'GET']);
  });

  it('gets GET after a refused HEAD even with no retries', async () => {
    const before = site.requestsFor('/head-refused').length;
    const { links } = await collectScan(
      { url: site.url('/budget'), scanDepth: 1 },
      { lookup, retries: 0 },
    );
    expect(
      site
        .requestsFor('/head-refused')
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['HEAD', 'GET']);
    expect(urlOutcomes(links).find((o) => o.url === site.url('/head-refused'))?.state).toBe('ok');
  });

  it('lets the crawl go on while a URL waits to retry', async () => {
    // One thread: a wait that held it would keep every other link waiting behind the retry.
    const { links } = await collectScan(
      { url: site.url('/waiting'), scanDepth: 1, maxThreadCount: 1 },
      { lookup, retries, retryBaseDelayMs: 400 },
    );
    expect(urlOutcomes(links).every((outcome) => outcome.state === 'ok')).toBe(true);
    const order = site.requests
      .filter((request) => ['/fails-once', '/b1', '/b2', '/b3', '/b4'].includes(request.path))
      .map((request) => request.path);
    expect(order).toEqual(['/fails-once', '/b1', '/b2', '/b3', '/b4', '/fails-once']);
  });
});
