// A huge page (30 MB, streamed) does not blow memory: links in its first part are found, and
// beyond EngineOptions.maxPageBytes it is not read.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  hugePage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const totalBytes = 30 * 1024 * 1024;
const huge = hugePage(
  '<!doctype html><html><head><title>Huge</title></head><body>\n<a href="/early.html">early</a>\n<img src="/early.png" alt="">\n',
  '<a href="/late.html">late</a></body></html>\n',
  totalBytes,
);
const lookup = createLookup(['site.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': huge.route,
      '/early.html': 'early',
      '/early.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

/** Samples heap and buffer memory while `work` runs; resolves with its result and the peak growth. */
async function measurePeak<T>(work: () => Promise<T>): Promise<{ result: T; peakGrowth: number }> {
  const used = () => {
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const baseline = used();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
  try {
    const result = await work();
    peak = Math.max(peak, used());
    return { result, peakGrowth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

describe('a huge page', () => {
  it('is parsed within bounded memory (default page limit) and its early links are found', async () => {
    const { result, peakGrowth } = await measurePeak(() =>
      collectScan({ url: site.url('/') }, { lookup }),
    );
    expect(result.done.status).toBe(ScanStatus.Complete);
    expect(result.pages.map((page) => [page.url, page.title])).toEqual([[site.url('/'), 'Huge']]);
    expect(urlOutcomes(result.links).filter((o) => o.url !== site.url('/late.html'))).toEqual([
      { url: site.url('/early.html'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: site.url('/early.png'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
    // Holding the page (30 MB, or 20 MiB as a UTF-16 string) would show up as far more than this.
    expect(peakGrowth).toBeLessThan(64 * 1024 * 1024);
  });

  it('is not read beyond maxPageBytes', async () => {
    const { links } = await collectScan(
      { url: site.url('/') },
      { lookup, maxPageBytes: 1024 * 1024 },
    );
    expect(links.map((link) => link.url).sort()).toEqual([
      site.url('/early.html'),
      site.url('/early.png'),
    ]);
    expect(site.requestsFor('/late.html')).toEqual([]);
    expect(huge.bytesSent()).toBeLessThan(totalBytes);
  });
});
