// Files that are not HTML (archives, images, PDFs, plain text) are checked, never parsed, even
// when they are internal links of a whole-site scan and contain something that looks like a link.
import { randomBytes } from 'node:crypto';
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  htmlPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

const fakeLink = (path: string) =>
  Buffer.from(`<html><a href="${path}">looks like a link</a></html>`);
const file = (contentType: string, body: Buffer) => ({
  headers: { 'content-type': contentType },
  body,
});

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<a href="/files/archive.zip">zip</a>',
          '<a href="/files/data.bin">bin</a>',
          '<a href="/files/manual.pdf">pdf</a>',
          '<a href="/files/notes.txt">txt</a>',
          '<img src="/img/photo.png" alt="">',
        ].join('\n'),
      ),
      '/files/archive.zip': file(
        'application/zip',
        Buffer.concat([randomBytes(2 * 1024 * 1024), fakeLink('/inside-zip.html')]),
      ),
      '/files/data.bin': file(
        'application/octet-stream',
        Buffer.concat([randomBytes(1024), fakeLink('/inside-bin.html')]),
      ),
      '/files/manual.pdf': file(
        'application/pdf',
        Buffer.concat([Buffer.from('%PDF-1.4\n'), fakeLink('/inside-pdf.html')]),
      ),
      '/files/notes.txt': file('text/plain', fakeLink('/inside-txt.html')),
      '/img/photo.png': file(
        'image/png',
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(4096)]),
      ),
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

describe('binary files', () => {
  it('checks linked files without parsing them', async () => {
    const { pages, links, done } = await collectScan(
      { url: site.url('/'), scanDepth: 3 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => page.url)).toEqual([site.url('/')]);
    expect(urlOutcomes(links)).toEqual(
      [
        '/files/archive.zip',
        '/files/data.bin',
        '/files/manual.pdf',
        '/files/notes.txt',
        '/img/photo.png',
      ].map((path) => ({ url: site.url(path), state: 'ok', detail: 200, referenceCount: 1 })),
    );
    expect(site.requestedPaths().filter((path) => path.startsWith('/inside-'))).toEqual([]);
  });
});
