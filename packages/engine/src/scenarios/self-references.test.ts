// Links that name the page they are on (`#`, `?`, an empty href) and links that name nothing
// fetchable (an address that cannot be parsed, an empty src), as real documentation sites have
// them by the hundred. The site is served as a static server serves files: repeated slashes and
// queries are ignored, so a wrong resolution (`//library/x.html`) would answer 200 and make the
// crawl grow without end.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  htmlPage,
  startTestSite,
  urlOutcomes,
  type SiteRoutes,
  type TestSite,
} from '../test-support/index.js';

const pages: SiteRoutes = {
  '/library/index.html': htmlPage(
    [
      '<a href="#">top</a> <a href="?">again</a> <a href="">self</a> <a href="#">top</a>',
      '<a href="x.html">x</a> <a href="sub/y.html">y</a>',
      '<a href="http://[bad">bad</a> <a href="http://[bad">bad again</a>',
      '<img src=""> <img src="">',
    ].join('\n'),
  ),
  '/library/x.html': htmlPage(
    '<a href="#">top</a> <a href="?">q</a> <a href="index.html">index</a> <a href="http://[bad">bad</a> <img src="">',
  ),
  '/library/sub/y.html': htmlPage(
    '<a href="#">top</a> <a href="?#">q</a> <a href="../x.html">x</a>',
  ),
};

let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {},
    {
      // A static file server: `//library//x.html?anything` is the file /library/x.html.
      fallback: {
        handler: (request, response) => {
          const path = (request.url ?? '/').split('?')[0]!.replace(/\/{2,}/g, '/');
          const page = pages[path];
          if (typeof page === 'string') response.writeHead(200, { 'content-type': 'text/html' });
          else response.writeHead(404, { 'content-type': 'text/plain' });
          response.end(typeof page === 'string' ? page : 'Not Found');
        },
      },
    },
  );
});
afterAll(() => site.close());

describe('links to the page itself and links to nothing', () => {
  it('resolves `#`, `?` and an empty href to the page itself: the crawl reads each page once', async () => {
    const {
      pages: read,
      links,
      done,
    } = await collectScan({
      url: site.url('/library/index.html'),
      scanDepth: 2,
      checkAnchors: true,
    });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(read.map((page) => page.url).sort()).toEqual(
      ['/library/index.html', '/library/sub/y.html', '/library/x.html'].map((path) =>
        site.url(path),
      ),
    );
    expect(site.requestedPaths().filter((path) => path.includes('//'))).toEqual([]);
    const fine = urlOutcomes(links).filter((outcome) => outcome.state === 'ok');
    expect(fine).toEqual([
      // index: `#` twice, `?`, `""`, and x's link back; an empty query is no query.
      { url: site.url('/library/index.html'), state: 'ok', detail: 200, referenceCount: 5 },
      { url: site.url('/library/sub/y.html'), state: 'ok', detail: 200, referenceCount: 3 },
      { url: site.url('/library/x.html'), state: 'ok', detail: 200, referenceCount: 4 },
    ]);
    // Nothing about an empty fragment or an empty href is a problem.
    expect(links.filter((link) => link.anchor && link.anchor.state !== 'found')).toEqual([]);
  });

  it('counts a link to nothing once per unique target, and each occurrence in its references', async () => {
    const { links, done } = await collectScan({
      url: site.url('/library/index.html'),
      scanDepth: 2,
    });
    const broken = urlOutcomes(links).filter((outcome) => outcome.state === 'broken');
    expect(broken).toEqual([
      { url: '', state: 'broken', detail: FailureReason.SourceAttributeMissing, referenceCount: 3 },
      {
        url: 'http://[bad',
        state: 'broken',
        detail: FailureReason.InvalidFormat,
        referenceCount: 3,
      },
    ]);
    expect(done.summary.uniqueBrokenLinks).toBe(2);
    expect(done.summary.brokenLinks).toBe(6);
    expect(done.summary.reasons).toEqual({
      [FailureReason.SourceAttributeMissing]: 1,
      [FailureReason.InvalidFormat]: 1,
    });
  });

  it('stops at maxErrorCount on unique targets, not on repeated occurrences of one', async () => {
    const { done } = await collectScan({
      url: site.url('/library/index.html'),
      scanDepth: 2,
      maxErrorCount: 3,
    });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(done.stoppedBy).toBeUndefined();
  });
});
