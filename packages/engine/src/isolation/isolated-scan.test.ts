// runIsolatedScan: the same scan as runScan, in a process of its own that a cancel, a memory cap
// or a crash ends within a second, always with a `done` and never with a process left behind.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { defaultScanRequest, endingStatus, ScanStatus } from '@linkaudit/core';
import { crawlSettingsFor } from '../crawl-settings.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanEvent } from '../events.js';
import { blockedAddressCode } from '../fetch/address-policy.js';
import { runScan } from '../scan.js';
import { scanFailureMessages } from '@linkaudit/core';
import {
  createLookup,
  fastEngineOptions,
  htmlPage,
  linksPage,
  redirect,
  startTestSite,
  type RouteHandler,
  type TestSite,
} from '../test-support/index.js';
import { isolatedEngineOptions } from './isolated-options.js';
import { runIsolatedScan, type RunIsolatedScanOptions } from './isolated-scan.js';
import { spareProcessId } from './scan-processes.js';

const policyFactories = new URL('../test-support/policy-factories.ts', import.meta.url).href;
const lookup = createLookup(['site.test', 'other.test']);
let site: TestSite;
let other: TestSite;

/** A page of `count` distinct links, streamed in chunks: parsing it keeps a scan busy. */
function manyLinks(count: number): RouteHandler {
  return async (_request, response, { signal }) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.write('<!doctype html><html><head><title>Links</title></head><body>\n');
    for (let written = 0; written < count && !signal.aborted;) {
      let chunk = '';
      for (const end = Math.min(count, written + 1000); written < end; written++)
        chunk += `<a href="/l/${written}">link ${written}</a>\n`;
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end('</body></html>\n');
  };
}

beforeAll(async () => {
  other = await startTestSite({ '/': 'ok', '/gone': { status: 410 } }, { host: 'other.test' });
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<a href="/a">a</a> <a href="/b#part">b</a> <a href="/missing">missing</a>',
          '<img src="/logo.png" alt=""> <a href="/moved">moved</a>',
          `<a href="${other.url('/')}">other</a> <a href="${other.url('/gone')}">gone</a>`,
          '<a href="http://nowhere.test/">nowhere</a> <a href="mailto:a@b.test">mail</a>',
        ].join('\n'),
        '<title>Home</title>',
      ),
      '/a': linksPage(['/', '/b', '/a#top']),
      '/b': htmlPage('<h2 id="part">Part</h2> <a href="/a">a</a>'),
      '/moved': redirect('/b'),
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: new Uint8Array(100) },
      '/huge': { handler: manyLinks(1_000_000) },
    },
    { host: 'site.test', fallback: 'ok' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

/** Events without their timings, which differ from run to run. */
function comparable(events: ScanEvent[]): unknown[] {
  return events
    .filter((event) => event.type !== 'progress')
    .map((event) =>
      event.type === 'done' ? { ...event, summary: { ...event.summary, durationMs: 0 } } : event,
    );
}

/** The processes this one has started and not yet reaped, but the spare (scan-processes.ts). */
function childPids(): number[] {
  const tasks = readdirSync(`/proc/${process.pid}/task`);
  return tasks
    .flatMap((task) =>
      readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    )
    .filter((pid) => pid !== spareProcessId());
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs an isolated scan, noting the scan's process when it sends its first event. */
async function isolated(
  url: string,
  options: Partial<RunIsolatedScanOptions> = {},
): Promise<{
  events: ScanEvent[];
  done: Awaited<ReturnType<typeof runIsolatedScan>>;
  pids: number[];
  /** The scan process's nice value (it yields to the server where cores are busy). */
  niceness: number | undefined;
}> {
  const events: ScanEvent[] = [];
  let pids: number[] = [];
  let niceness: number | undefined;
  const done = await runIsolatedScan(
    crawlSettingsFor(defaultScanRequest({ url, checkAnchors: true, maxThreadCount: 1 })),
    {
      ...isolatedEngineOptions({ ...fastEngineOptions, lookup }),
      ...options,
      onEvent: (event) => {
        if (events.length === 0) {
          pids = childPids();
          niceness = pids.length === 1 ? getPriority(pids[0]) - getPriority() : undefined;
        }
        events.push(event);
      },
    },
  );
  return { events, done, pids, niceness };
}

describe('an isolated scan', () => {
  it('reports the same events, in the same order, and the same done as one in this process', async () => {
    const settings = crawlSettingsFor(
      defaultScanRequest({ url: site.url('/'), checkAnchors: true, maxThreadCount: 1 }),
    );
    const here: ScanEvent[] = [];
    const hereDone = await runScan(settings, {
      ...fastEngineOptions,
      lookup,
      onEvent: (event) => here.push(event),
    });
    // The production default (vitest.config.ts keeps the tests' scans at their priority).
    process.env.LINKAUDIT_SCAN_NICENESS = '10';
    const { events, done, pids, niceness } = await isolated(site.url('/')).finally(() => {
      process.env.LINKAUDIT_SCAN_NICENESS = '0';
    });
    expect(endingStatus(hereDone)).toBe(ScanStatus.Complete);
    expect(hereDone.summary.brokenLinks).toBeGreaterThan(1);
    expect(comparable(events)).toEqual(comparable(here));
    expect(events.at(-1)).toEqual(done);
    expect(events.filter((event) => event.type === 'progress').length).toBeGreaterThan(0);
    expect(pids).toHaveLength(1);
    expect(niceness).toBe(10);
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('is cancelled within a second while it reads a page of a million links', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const waitForHuge = setInterval(() => {
      const reading = site.requests.some((request) => request.path === '/huge');
      if (reading && abortedAt === 0) {
        // Let it get well into the page first.
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 300);
        abortedAt = -1;
      }
    }, 10);
    try {
      const { done, pids } = await isolated(site.url('/huge'), { signal: controller.signal });
      const cancelMs = performance.now() - abortedAt;
      console.log(`isolated scan of a page of 10^6 links cancelled in ${cancelMs.toFixed(0)} ms`);
      expect(abortedAt).toBeGreaterThan(0);
      expect(cancelMs).toBeLessThan(1_000);
      expect(endingStatus(done)).toBe(ScanStatus.Cancelled);
      expect(done).toMatchObject({ stoppedBy: 'cancelled' });
      expect(pids.filter(isRunning)).toEqual([]);
    } finally {
      clearInterval(waitForHuge);
    }
  });

  it('is cancelled within a second when its process no longer answers at all', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'linkaudit-spin-'));
    const marker = path.join(folder, 'spinning');
    const controller = new AbortController();
    let abortedAt = 0;
    const waitForSpin = setInterval(() => {
      if (abortedAt === 0 && existsSync(marker)) {
        abortedAt = performance.now();
        controller.abort();
      }
    }, 10);
    const { done, pids } = await isolated(site.url('/'), {
      signal: controller.signal,
      addressPolicy: { module: policyFactories, name: 'spinningPolicy', argument: marker },
    }).finally(() => {
      clearInterval(waitForSpin);
      rmSync(folder, { recursive: true, force: true });
    });
    const cancelMs = performance.now() - abortedAt;
    console.log(`isolated scan stuck in a loop cancelled in ${cancelMs.toFixed(0)} ms`);
    expect(abortedAt).toBeGreaterThan(0);
    expect(cancelMs).toBeLessThan(1_000);
    expect(cancelMs).toBeGreaterThan(650);
    expect(endingStatus(done)).toBe(ScanStatus.Cancelled);
    expect(done).toMatchObject({ stoppedBy: 'cancelled' });
    expect(pids.filter(isRunning)).toEqual([]);
    expect(childPids()).toEqual([]);
  });

  it('ends at once, cancelled, when the signal is already aborted', async () => {
    const started = performance.now();
    const { done } = await isolated(site.url('/'), { signal: AbortSignal.abort() });
    expect(endingStatus(done)).toBe(ScanStatus.Cancelled);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('fails, saying so, when it needs more memory than its cap', async () => {
    const { done, pids } = await isolated(site.url('/huge'), { memoryLimitMb: 24 });
    expect(endingStatus(done)).toBe(ScanStatus.Failed);
    expect(done).toMatchObject({ stoppedBy: 'error', error: scanFailureMessages.memoryLimit(24) });
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('fails, saying so, when its process dies', async () => {
    const { events, done } = await isolated(site.url('/'), {
      addressPolicy: {
        module: policyFactories,
        name: 'exitingPolicy',
        argument: 3,
      },
    });
    expect(endingStatus(done)).toBe(ScanStatus.Failed);
    expect(done).toMatchObject({
      stoppedBy: 'error',
      error: scanFailureMessages.processEnded('exit code 3'),
    });
    expect(events).toEqual([done]);
    expect(childPids()).toEqual([]);
  });

  it('fails, saying so, when its address policy cannot be made', async () => {
    const { done } = await isolated(site.url('/'), {
      addressPolicy: { module: 'node:path', name: 'noSuchPolicy' },
    });
    expect(endingStatus(done)).toBe(ScanStatus.Failed);
    expect(done).toMatchObject({
      error: 'Engine error: node:path exports no function noSuchPolicy',
    });
  });

  it('fails, saying so, when an option is a function that cannot cross', async () => {
    const { done } = await isolated(site.url('/'), { ca: (() => 'pem') as unknown as string });
    expect(endingStatus(done)).toBe(ScanStatus.Failed);
    expect(done).toMatchObject({ stoppedBy: 'error' });
    expect(done.error).toMatch(/^Engine error: .*could not be cloned/);
    expect(childPids()).toEqual([]);
  });

  it('applies an address policy made in its process', async () => {
    const { done, events } = await isolated(site.url('/'), {
      addressPolicy: { module: policyFactories, name: 'refusingHosts', argument: ['other.test'] },
    });
    expect(endingStatus(done)).toBe(ScanStatus.Complete);
    const outcomes = events.flatMap((event) =>
      event.type === 'link' && event.url.startsWith(other.origin)
        ? [event.check.state === 'broken' ? event.check.errorCode : event.check.state]
        : [],
    );
    expect(outcomes).toEqual([blockedAddressCode, blockedAddressCode]);
  });
});
