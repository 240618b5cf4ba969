// Crash recovery (issue 21): a scan resumed with what an interrupted run already checked fetches
// none of those URLs again, unless it must read them (pages to crawl), and ends with the very
// results and counts of a scan that ran through.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkEvent } from '../events.js';
import type { ScanResume } from '../options.js';
import {
  collectScan,
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
