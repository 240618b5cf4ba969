// Crash recovery (issue 21): a scan resumed with what an interrupted run already checked fetches
// none of those URLs again, unless it must read them (pages to crawl), and ends with the very
// results and counts of a scan that ran through.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSettingsFor, runScan } from '../index.js';
import { defaultScanRequest } from '@linkaudit/core';
import type { LinkEvent, ScanEvent } from '../events.js';
import type { ScanResume } from '../options.js';
import {
  collectScan,
  fastEngineOptions,
  htmlPage,
  redirect,
  startTestSite,
  statusOnly,
  type TestSite,
} from '../test-support/index.js';

let site: TestSite;
const files = Array.from({ length: 6 }, (_, index) => `/files/${index}.pdf`);

beforeAll(async () => {
  site = await startTestSite({
    '/': htmlPage(
      `<a href="/a.html">a</a> <a href="/b.html">b</a> <img src="/logo.png"> ${files
        .slice(0, 3)
        .map((file) => `<a href="${file}">f</a>`)
        .join(' ')}`,
    ),
    '/a.html': htmlPage(
      `<a href="/gone">gone</a> <a href="/moved.png">moved</a> <a href="/b.html">b</a> ${files
        .slice(3)
        .map((file) => `<a href="${file}">f</a>`)
        .join(' ')}`,
    ),
    '/b.html': htmlPage('<a href="/">home</a> <a href="/gone">gone</a> <img src="/logo.png">'),
    '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    '/moved.png': redirect('/logo.png'),
    '/gone': statusOnly(404),
    ...Object.fromEntries(
      files.map((file) => [file, { headers: { 'content-type': 'application/pdf' }, body: 'pdf' }]),
    ),
  });
});
afterAll(() => site.close());

const settings = () => ({ url: site.url('/'), scanDepth: 3 as const });

describe('a scan resumed from an interrupted run', () => {
  it('fetches no URL already checked (pages excepted) and ends as a scan that ran through', async () => {
    const through = await collectScan(settings());
    expect(through.done.status).toBe(ScanStatus.Complete);

    // What an interrupted run had checked: every non-page target, and one page.
    const checked = new Map<string, LinkEvent['check']>();
    for (const link of through.links) if (link.url !== '') checked.set(link.url, link.check);
    const resume: ScanResume = {
      checked: [...checked].map(([url, check]) => ({ url, check })),
    };
    const before = site.requests.length;
    const resumed = await collectScan(settings(), { resume });
    const fetchedAgain = site.requests.slice(before).map((request) => request.path);

    expect(resumed.done.status).toBe(ScanStatus.Complete);
    // Only the pages, to read their links again (and robots.txt, read before any link).
    expect(new Set(fetchedAgain)).toEqual(new Set(['/robots.txt', '/', '/a.html', '/b.html']));
    expect(linkRows(resumed.links)).toEqual(linkRows(through.links));
    const { durationMs: _a, ...resumedSummary } = resumed.done.summary;
    const { durationMs: _b, ...throughSummary } = through.done.summary;
    expect(resumedSummary).toEqual(throughSummary);
  });

  it('fetches again what it must read: an HTML page whose anchors are checked', async () => {
    const anchors = { ...settings(), checkAnchors: true, scanDepth: 1 as const };
    const through = await collectScan(anchors);
    const resume: ScanResume = {
      checked: through.links.map((link) => ({ url: link.url, check: link.check })),
    };
    const before = site.requests.length;
    const resumed = await collectScan(anchors, { resume });
    const fetchedAgain = site.requests.slice(before).map((request) => request.path);
    expect(fetchedAgain).toContain('/a.html');
    expect(fetchedAgain).not.toContain('/logo.png');
    expect(linkRows(resumed.links)).toEqual(linkRows(through.links));
  });
});

describe('a scan resumed from its page checkpoint', () => {
  /** 24 pages, each with three files, a 404 and a link home, all linked from the start page. */
  let wide: TestSite;
  const pages = Array.from({ length: 24 }, (_, index) => `/pages/${index}.html`);
  beforeAll(async () => {
    wide = await startTestSite({
      '/': htmlPage(pages.map((page) => `<a href="${page}">p</a>`).join('\n')),
      ...Object.fromEntries(
        pages.map((page, index) => [
          page,
          htmlPage(
            `<h1 id="top">${index}</h1> <a href="/">home</a> <a href="/missing">x</a> ${[0, 1, 2]
              .map((file) => `<a href="/files/${index}-${file}.pdf">f</a>`)
              .join(' ')}`,
          ),
        ]),
      ),
      ...Object.fromEntries(
        pages.flatMap((_, index) =>
          [0, 1, 2].map((file) => [
            `/files/${index}-${file}.pdf`,
            { headers: { 'content-type': 'application/pdf' }, body: 'pdf' },
          ]),
        ),
      ),
    });
  });
  afterAll(() => wide.close());
  // Two fetches at a time, so the stop below comes with most of the site still unread.
  const wideSettings = () => ({
    url: wide.url('/'),
    scanDepth: 2 as const,
    checkAnchors: true,
    maxThreadCount: 2,
  });

  it('does not read again the pages it read before it was stopped, and ends as a scan that ran through', async () => {
    const through = await collectScan(wideSettings());
    expect(through.done.status).toBe(ScanStatus.Complete);

    // Interrupted: stopped once 8 pages have been read (as a crash would stop it).
    const controller = new AbortController();
    const interrupted: ScanEvent[] = [];
    await runScan(crawlSettingsFor(defaultScanRequest(wideSettings())), {
      ...fastEngineOptions,
      checkpointPages: true,
      signal: controller.signal,
      onEvent: (event) => {
        interrupted.push(event);
        if (interrupted.filter((e) => e.type === 'page-read').length === 8) controller.abort();
      },
    });
    const records = interrupted
      .filter((event) => event.type === 'page-read')
      .map((event) => event.record);
    const checked = new Map<string, LinkEvent['check']>();
    for (const event of interrupted) {
      // What the server keeps of a run: the checks it made (skipped links were not checked).
      if (event.type === 'link' && event.url !== '' && event.check.state !== 'skipped')
        checked.set(event.url, event.check);
    }
    const readBefore = new Set(records.map((record) => new URL(record.url).pathname));
    expect(readBefore.size).toBeGreaterThanOrEqual(8);
    expect(readBefore.size).toBeLessThan(pages.length + 1);

    const before = wide.requests.length;
    const resume: ScanResume = {
      checked: [...checked].map(([url, check]) => ({ url, check })),
      pages: records,
    };
    const resumed = await collectScan(wideSettings(), { resume, checkpointPages: true });
    const fetchedAgain = wide.requests.slice(before).map((request) => request.path);

    expect(resumed.done.status).toBe(ScanStatus.Complete);
    // Every page read before is taken from the checkpoint; the others are read once now.
    const pagesFetched = fetchedAgain.filter((path) => path === '/' || path.startsWith('/pages/'));
    expect(pagesFetched.filter((path) => readBefore.has(path))).toEqual([]);
    expect(new Set(pagesFetched).size).toBe(pagesFetched.length);
    expect(readBefore.size + pagesFetched.length).toBe(pages.length + 1);
    // The same results as the scan that ran through: links, anchors, pages, summary.
    expect(linkRows(resumed.links)).toEqual(linkRows(through.links));
    expect(resumed.pages.map(pageRow).sort()).toEqual(through.pages.map(pageRow).sort());
    const { durationMs: _a, ...resumedSummary } = resumed.done.summary;
    const { durationMs: _b, ...throughSummary } = through.done.summary;
    expect(resumedSummary).toEqual(throughSummary);
    // The resumed run records every page again, for a crash during it.
    expect(resumed.events.filter((event) => event.type === 'page-read')).toHaveLength(
      pages.length + 1,
    );
  });

  it('reads every page again when quality rules run (they need its text)', async () => {
    const settings = { url: wide.url('/'), scanDepth: 2 as const, selectedRules: [4001] };
    const first = await collectScan(settings, { checkpointPages: true });
    expect(first.events.some((event) => event.type === 'page-read')).toBe(false);
    const records = (
      await collectScan({ url: wide.url('/'), scanDepth: 2 as const }, { checkpointPages: true })
    ).events
      .filter((event) => event.type === 'page-read')
      .map((event) => event.record);
    const before = wide.requests.length;
    await collectScan(settings, { resume: { checked: [], pages: records } });
    const fetched = wide.requests.slice(before).map((request) => request.path);
    expect(fetched.filter((path) => path.startsWith('/pages/'))).toHaveLength(pages.length);
  });
});

function pageRow(page: {
  url: string;
  finalUrl: string;
  statusCode: number;
  bytes: number;
  depth: number;
  title?: string;
  linkCount: number;
}): string {
  return JSON.stringify([
    page.url,
    page.finalUrl,
    page.statusCode,
    page.bytes,
    page.depth,
    page.title,
    page.linkCount,
  ]);
}

/** Link events as comparable rows, in a stable order (their order depends on fetch timing). */
function linkRows(links: LinkEvent[]): string[] {
  return links
    .map((link) =>
      JSON.stringify([
        link.source,
        link.target,
        link.line,
        link.column,
        link.check.state,
        'statusCode' in link.check ? link.check.statusCode : null,
        link.anchor?.state ?? null,
      ]),
    )
    .sort();
}
