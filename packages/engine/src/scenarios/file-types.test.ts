// File types: per content type (base type, lower-cased, 'unknown' when the server says none), how
// many files were fetched OK and their bytes: pages their decoded HTML, other files their
// Content-Length or downloaded size, 0 when neither is known. A redirect and its final address
// are one file; broken links and skipped schemes are no files at all.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileTypeTotal } from '../index.js';
import {
  chunkedFile,
  collectScan,
  createLookup,
  htmlPage,
  linksPage,
  redirect,
  sizedFile,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'files.test']);
let site: TestSite;
let files: TestSite;
let homePage = '';
const aboutPage = linksPage(['/']);
const bytes = (html: string) => Buffer.byteLength(html);

beforeAll(async () => {
  // A linked (not embedded) PDF on another host is only asked with HEAD, which gives no length.
  files = await startTestSite(
    { '/report.pdf': chunkedFile(5000, 'application/pdf') },
    { host: 'files.test' },
  );
  homePage = htmlPage(
    [
      '<a href="/about.html">about</a>',
      '<a href="/moved.html">about, through a redirect</a>',
      '<img src="/img/logo.png" alt="">',
      '<img src="/img/old-logo.png" alt="the logo, through a redirect">',
      '<img src="/img/photo.png" alt="">',
      '<img src="/img/anim.gif" alt="">',
      '<img src="/missing.png" alt="broken">',
      '<link rel="stylesheet" href="/style.css">',
      '<link rel="stylesheet" href="/print.css">',
      '<script src="/js/stream.js"></script>',
      '<object data="/data.bin"></object>',
      '<a href="/files/guide.pdf">guide</a>',
      `<a href="${files.url('/report.pdf')}">report</a>`,
      '<a href="mailto:team@site.test">mail</a>',
    ].join('\n'),
  );
  site = await startTestSite(
    {
      '/': { body: homePage, encoding: 'gzip' },
      '/about.html': aboutPage,
      '/moved.html': redirect('/about.html', 301),
      '/img/logo.png': sizedFile(1200, 'image/png'),
      '/img/old-logo.png': redirect('/img/logo.png', 302),
      '/img/photo.png': sizedFile(800, 'image/png'),
      '/img/anim.gif': sizedFile(100, 'image/gif'),
      '/style.css': sizedFile(500, 'text/css; charset=utf-8'),
      '/print.css': sizedFile(250, 'Text/CSS'),
      '/js/stream.js': chunkedFile(2500, 'application/javascript'),
      '/data.bin': sizedFile(100),
      '/files/guide.pdf': sizedFile(3000, 'application/pdf'),
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await files.close();
});

/** Biggest first, then by name. */
const bySizeThenType = (a: FileTypeTotal, b: FileTypeTotal) =>
  b.totalSize - a.totalSize || a.contentType.localeCompare(b.contentType);

describe('file types', () => {
  it('counts each file fetched OK once, by content type, with its bytes', async () => {
    const { done } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    expect(done.status).toBe(ScanStatus.Complete);
    const expected: FileTypeTotal[] = [
      // / (decoded, not as sent) and /about.html, which /moved.html reaches too.
      { contentType: 'text/html', count: 2, totalSize: bytes(homePage) + bytes(aboutPage) },
      // guide.pdf by its Content-Length; report.pdf's HEAD said no length: 0.
      { contentType: 'application/pdf', count: 2, totalSize: 3000 },
      // Sent chunked: downloaded to be counted.
      { contentType: 'application/javascript', count: 1, totalSize: 2500 },
      // logo.png (old-logo.png leads to it) and photo.png.
      { contentType: 'image/png', count: 2, totalSize: 2000 },
      // text/css; charset=utf-8 and Text/CSS are one type.
      { contentType: 'text/css', count: 2, totalSize: 750 },
      // A tie on size: by name.
      { contentType: 'image/gif', count: 1, totalSize: 100 },
      { contentType: 'unknown', count: 1, totalSize: 100 },
    ];
    expect(done.summary.fileTypes).toEqual(expected.sort(bySizeThenType));
  });

  it('gives a read page its HTML bytes as the size of its link check', async () => {
    // The server sums the checks' sizes for the report's file types: a page sent compressed (its
    // Content-Length is the compressed size) or chunked (none) still weighs its HTML.
    const { links } = await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    const sizeOf = (url: string) => {
      const check = links.find((link) => link.url === url)?.check;
      return check?.state === 'ok' ? check.size : undefined;
    };
    expect(sizeOf(site.url('/'))).toBe(bytes(homePage));
    expect(sizeOf(site.url('/about.html'))).toBe(bytes(aboutPage));
  });

  it('learns sizes with as few requests as it can', async () => {
    const [before, filesBefore] = [site.requests.length, files.requests.length];
    await collectScan({ url: site.url('/'), scanDepth: 3 }, { lookup });
    const methods = (on: TestSite, since: number, path: string) =>
      on.requests
        .slice(since)
        .filter((request) => request.path === path)
        .map((request) => request.method);
    expect(methods(files, filesBefore, '/report.pdf')).toEqual(['HEAD']);
    expect(methods(site, before, '/js/stream.js')).toEqual(['HEAD', 'GET']);
    expect(methods(site, before, '/img/photo.png')).toEqual(['HEAD']);
    expect(methods(site, before, '/files/guide.pdf')).toEqual(['GET']);
  });
});
