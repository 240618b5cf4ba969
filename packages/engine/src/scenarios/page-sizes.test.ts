// Page sizes: for each crawled page, its decoded HTML plus every distinct resource it references
// (images, srcset, CSS, scripts, icons, media, objects, CSS url()s), by content type. Sizes come
// from Content-Length (never downloaded) or, when the server does not say, from downloading it;
// a resource referenced twice counts once; broken ones add nothing; links to pages add nothing.
// The summary buckets pages by megabyte (1 MB = 1,048,576 bytes) and counts those over 2 MB.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSizeEvent } from '../index.js';
import {
  chunkedFile,
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  sizedFile,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const MB = 1_048_576;
const lookup = createLookup(['site.test', 'cdn.test']);
let site: TestSite;
let cdn: TestSite;

const homeHead = [
  '<link rel="stylesheet" href="/css/site.css">',
  '<link rel="icon" href="/favicon.ico">',
  '<link rel="canonical" href="/">',
  '<style>@font-face { font-family: f; src: url(/fonts/f.woff2) }</style>',
].join('\n');

function homeBody(cdnOrigin: string): string {
  return [
    '<img src="/img/a.png" srcset="/img/a.png 1x, /img/a-2x.png 2x" alt="">',
    '<img src="/img/a.png" alt="the same image again">',
    '<img src="/img/broken.png" alt="">',
    '<script src="/js/chunked.js"></script>',
    `<script src="${cdnOrigin}/lib.js"></script>`,
    '<video src="/media/clip.mp4" poster="/img/poster.jpg"><track src="/media/subs.vtt"></video>',
    '<div style="background: url(/img/bg.gif)">styled</div>',
    '<object data="/data/blob"></object>',
    '<picture><source srcset="/img/p.webp"><img src="/img/a.png" alt=""></picture>',
    '<audio><source src="/media/a.ogg"></audio>',
    '<embed src="/media/anim.svg">',
    '<map name="m"><area href="/about.html" alt="a page, not a resource"></map>',
    '<a href="/about.html">about</a> <a href="/exact.html">exact</a>',
    '<a href="/two-mb.html">two</a> <a href="/huge.html">huge</a>',
    '<iframe src="/frame.html"></iframe>',
  ].join('\n');
}

const aboutPage = htmlPage('<img src="/img/a.png" alt="">\n<video src="/media/big.mp4"></video>');
const exactPage = htmlPage('<img src="/img/exact.png" alt="">');
const twoMbPage = htmlPage('<img src="/img/two.png" alt="">');
const hugePage = htmlPage('<video src="/media/huge.mp4"></video>');
const framePage = htmlPage('<p>frame</p>');
const bytes = (html: string) => Buffer.byteLength(html);
let homePage = '';

beforeAll(async () => {
  cdn = await startTestSite({ '/lib.js': sizedFile(800, 'text/javascript') }, { host: 'cdn.test' });
  homePage = htmlPage(homeBody(cdn.origin), homeHead);
  site = await startTestSite(
    {
      // Sent gzip-compressed: the page weighs what it decodes to.
      '/': { body: homePage, encoding: 'gzip' },
      '/about.html': aboutPage,
      '/exact.html': exactPage,
      '/two-mb.html': twoMbPage,
      '/huge.html': hugePage,
      '/frame.html': framePage,
      '/css/site.css': sizedFile(2000, 'text/css; charset=utf-8'),
      '/favicon.ico': sizedFile(500, 'image/x-icon'),
      '/fonts/f.woff2': sizedFile(4000, 'font/woff2'),
      '/img/a.png': sizedFile(1000, 'image/png'),
      '/img/a-2x.png': sizedFile(1500, 'IMAGE/PNG'),
      '/js/chunked.js': chunkedFile(3000, 'text/javascript'),
      '/media/clip.mp4': sizedFile(5000, 'video/mp4'),
      '/img/poster.jpg': sizedFile(500, 'image/jpeg'),
      '/media/subs.vtt': sizedFile(120, 'text/vtt'),
      '/img/bg.gif': sizedFile(300, 'image/gif'),
      '/data/blob': sizedFile(50),
      '/img/p.webp': sizedFile(600, 'image/webp'),
      '/media/a.ogg': sizedFile(900, 'audio/ogg'),
      '/media/anim.svg': sizedFile(200, 'image/svg+xml'),
      '/media/big.mp4': sizedFile(2_200_000, 'video/mp4'),
      // Pages of exactly 1 MB and exactly 2 MB: the edges of the buckets and of "fattest".
      '/img/exact.png': sizedFile(MB - bytes(exactPage), 'image/png'),
      '/img/two.png': sizedFile(2 * MB - bytes(twoMbPage), 'image/png'),
      '/media/huge.mp4': sizedFile(6_000_000, 'video/mp4'),
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await cdn.close();
});

type Contents = PageSizeEvent['contents'];

/** Biggest first, then by name: the order the contract gives. */
const bySizeThenType = (a: Contents[number], b: Contents[number]) =>
  b.totalSize - a.totalSize || a.contentType.localeCompare(b.contentType);

function pageSizeOf(path: string, html: string, resources: Contents): PageSizeEvent {
  const htmlBytes = bytes(html);
  const contents = [{ contentType: 'text/html', totalSize: htmlBytes, count: 1 }, ...resources];
  return {
    type: 'page-size',
    page: site.url(path),
    htmlBytes,
    totalBytes: contents.reduce((sum, entry) => sum + entry.totalSize, 0),
    contents: contents.sort(bySizeThenType),
    unknownSizes: 0,
  };
}

function expectedPageSizes(): PageSizeEvent[] {
  return [
    // /img/a.png is referenced four times (src, srcset, another img, a picture) and counted once;
    // /img/broken.png adds nothing; /about.html (a, area), /frame.html and the canonical are
    // pages.
    pageSizeOf('/', homePage, [
      { contentType: 'font/woff2', totalSize: 4000, count: 1 },
      { contentType: 'video/mp4', totalSize: 5000, count: 1 },
      { contentType: 'text/javascript', totalSize: 3000 + 800, count: 2 },
      { contentType: 'image/png', totalSize: 1000 + 1500, count: 2 },
      { contentType: 'text/css', totalSize: 2000, count: 1 },
      { contentType: 'image/jpeg', totalSize: 500, count: 1 },
      { contentType: 'image/x-icon', totalSize: 500, count: 1 },
      { contentType: 'image/gif', totalSize: 300, count: 1 },
      { contentType: 'text/vtt', totalSize: 120, count: 1 },
      { contentType: 'unknown', totalSize: 50, count: 1 },
      { contentType: 'image/webp', totalSize: 600, count: 1 },
      { contentType: 'audio/ogg', totalSize: 900, count: 1 },
      { contentType: 'image/svg+xml', totalSize: 200, count: 1 },
    ]),
    pageSizeOf('/about.html', aboutPage, [
      { contentType: 'image/png', totalSize: 1000, count: 1 },
      { contentType: 'video/mp4', totalSize: 2_200_000, count: 1 },
    ]),
    pageSizeOf('/exact.html', exactPage, [
      { contentType: 'image/png', totalSize: MB - bytes(exactPage), count: 1 },
    ]),
    pageSizeOf('/frame.html', framePage, []),
    pageSizeOf('/huge.html', hugePage, [
      { contentType: 'video/mp4', totalSize: 6_000_000, count: 1 },
    ]),
    pageSizeOf('/two-mb.html', twoMbPage, [
      { contentType: 'image/png', totalSize: 2 * MB - bytes(twoMbPage), count: 1 },
    ]),
  ];
}

const byPage = (a: PageSizeEvent, b: PageSizeEvent) => a.page.localeCompare(b.page);

describe('page sizes', () => {
  it('weighs every crawled page: decoded HTML plus each distinct resource, by content type', async () => {
    const { events, pages, done } = await collectScan(
      { url: site.url('/'), scanDepth: 3 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    const sizes = eventsOfType(events, 'page-size');
    expect(sizes.sort(byPage)).toEqual(expectedPageSizes());
    expect(sizes.map((size) => size.totalBytes)).toEqual([
      bytes(homePage) + 20_470,
      bytes(aboutPage) + 2_201_000,
      MB,
      bytes(framePage),
      bytes(hugePage) + 6_000_000,
      2 * MB,
    ]);
    // The page event agrees on the decoded HTML bytes.
    expect(pages.find((page) => page.url === site.url('/'))?.bytes).toBe(bytes(homePage));
  });

  it('buckets pages by megabyte and counts those over 2 MB as the fattest', async () => {
    const { done } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    // Under 1 MB: / and /frame.html; 1–2: /exact.html (exactly 1 MB); 2–3: /two-mb.html
    // (exactly 2 MB, not over it) and /about.html; 5 and over: /huge.html.
    expect(done.summary.pageSizeBuckets).toEqual([2, 1, 2, 0, 0, 1]);
    expect(done.summary.fattestPages).toBe(2);
  });

  it('takes sizes from Content-Length without downloading, and downloads only what has none', async () => {
    const [before, cdnBefore] = [site.requests.length, cdn.requests.length];
    await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    const methods = (path: string, on = site, since = before) =>
      on.requests
        .slice(since)
        .filter((request) => request.path === path)
        .map((request) => request.method);
    expect(methods('/js/chunked.js')).toEqual(['HEAD', 'GET']);
    expect(methods('/img/a.png')).toEqual(['HEAD']);
    expect(methods('/media/big.mp4')).toEqual(['HEAD']);
    expect(methods('/media/huge.mp4')).toEqual(['HEAD']);
    expect(methods('/img/two.png')).toEqual(['HEAD']);
    expect(methods('/data/blob')).toEqual(['HEAD']);
    expect(methods('/lib.js', cdn, cdnBefore)).toEqual(['HEAD']);
  });
});
