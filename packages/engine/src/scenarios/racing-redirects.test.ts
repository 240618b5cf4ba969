// A page linked directly and through a redirect is fetched by both links at once. Whichever
// answer arrives first reads the page; the other waits for that reading instead of reading
// again: the page is reported once, weighed once, and both links' fragments are checked against
// its anchors, not left unverifiable because the reading was still under way.
import { setTimeout as sleep } from 'node:timers/promises';
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  linksPage,
  redirect,
  startTestSite,
  type CollectedScan,
  type RouteResponse,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

const slowPage = htmlPage('<p>slow to arrive</p>\n<h2 id="x">x</h2>');

/**
 * Headers after `headerDelayMs` (per hit), then half the page, a pause of `bodyDelayMs`, and the
 * rest: the reading of the page takes a while after its headers are in.
 */
function slowlyRead(headerDelayMs: (hit: number) => number, bodyDelayMs: number): RouteResponse {
  return {
    handler: async (request, response, { hit, signal }) => {
      await sleep(headerDelayMs(hit), undefined, { signal });
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      const half = Math.floor(slowPage.length / 2);
      response.write(slowPage.slice(0, half));
      await sleep(bodyDelayMs, undefined, { signal });
      response.end(slowPage.slice(half));
    },
  };
}

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': linksPage([
        '/direct-first.html#x',
        '/to-direct-first#x',
        '/redirect-first.html#x',
        '/to-redirect-first#x',
      ]),
      // The direct fetch gets its headers at once; the redirect arrives while it is still reading.
      '/direct-first.html': slowlyRead(() => 0, 300),
      '/to-direct-first': { ...redirect('/direct-first.html'), delayMs: 60 },
      // The direct fetch (first hit) waits for its headers; the redirect's fetch gets there first.
      '/redirect-first.html': slowlyRead((hit) => (hit === 1 ? 120 : 0), 300),
      '/to-redirect-first': redirect('/redirect-first.html'),
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

describe('a page two links race for', () => {
  // One scan for both checks: the race is set up by the order of hits on a fresh site.
  let scan: CollectedScan;
  beforeAll(async () => {
    scan = await collectScan({ url: site.url('/'), scanDepth: 3, checkAnchors: true }, { lookup });
  });

  it('is read once: one page event and one page-size event', () => {
    expect(scan.done.status).toBe(ScanStatus.Complete);
    const read = ['/', '/direct-first.html', '/redirect-first.html'].map((path) => site.url(path));
    expect(scan.pages.map((page) => page.finalUrl).sort()).toEqual(read);
    expect(
      eventsOfType(scan.events, 'page-size')
        .map((size) => [size.page, size.htmlBytes])
        .sort(),
    ).toEqual([
      [read[0], Buffer.byteLength(site.routes['/'] as string)],
      [read[1], Buffer.byteLength(slowPage)],
      [read[2], Buffer.byteLength(slowPage)],
    ]);
  });

  it('checks the fragments of both links against its anchors', () => {
    expect(scan.links.map((link) => [link.target, link.check.state, link.anchor]).sort()).toEqual(
      [
        '/direct-first.html#x',
        '/redirect-first.html#x',
        '/to-direct-first#x',
        '/to-redirect-first#x',
      ]
        .map((path) => [site.url(path), 'ok', { fragment: '#x', state: 'found' }])
        .sort(),
    );
    expect(scan.done.summary.brokenAnchors).toBe(0);
  });
});
