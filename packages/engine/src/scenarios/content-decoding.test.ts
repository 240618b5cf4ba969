// Pages are read as the browser would: gzip, deflate and br bodies decoded, the charset taken
// from the Content-Type header or from <meta> in the page.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  htmlPage,
  linksPage,
  startTestSite,
  urlOutcomes,
  windows1252,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

/** GBK bytes of 中文 and 链接 (TextEncoder only writes UTF-8). */
const gbk = {
  中文: Buffer.from([0xd6, 0xd0, 0xce, 0xc4]),
  链接: Buffer.from([0xc1, 0xb4, 0xbd, 0xd3]),
};
const ascii = (text: string) => Buffer.from(text, 'latin1');

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': linksPage([
        '/gzip.html',
        '/deflate.html',
        '/br.html',
        '/windows-1252.html',
        '/gbk-meta-charset.html',
        '/gbk-meta-http-equiv.html',
      ]),
      '/gzip.html': {
        body: htmlPage('<a href="/from-gzip.html">x</a>', '<title>gzip</title>'),
        encoding: 'gzip',
      },
      '/deflate.html': {
        body: htmlPage('<a href="/from-deflate.html">x</a>', '<title>deflate</title>'),
        encoding: 'deflate',
      },
      '/br.html': {
        body: htmlPage('<a href="/from-br.html">x</a>', '<title>br</title>'),
        encoding: 'br',
      },
      '/windows-1252.html': {
        headers: { 'content-type': 'text/html; charset=windows-1252' },
        body: windows1252(htmlPage('<a href="/café.html">café</a>', '<title>Café crème</title>')),
      },
      '/gbk-meta-charset.html': {
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([
          ascii('<!doctype html><html><head><meta charset="gbk"><title>'),
          gbk.中文,
          ascii('</title></head><body><a href="/'),
          gbk.中文,
          ascii('.html">x</a></body></html>'),
        ]),
      },
      '/gbk-meta-http-equiv.html': {
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([
          ascii(
            '<html><head><meta http-equiv="Content-Type" content="text/html; charset=GBK"><title>',
          ),
          gbk.链接,
          ascii('</title></head><body><a href="/'),
          gbk.链接,
          ascii('.html">x</a></body></html>'),
        ]),
      },
      '/from-gzip.html': 'leaf',
      '/from-deflate.html': 'leaf',
      '/from-br.html': 'leaf',
      [encodeURI('/café.html')]: 'leaf',
      [encodeURI('/中文.html')]: 'leaf',
      [encodeURI('/链接.html')]: 'leaf',
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

describe('content decoding', () => {
  it('decodes compressed pages and reads their charset from the header or from <meta>', async () => {
    const { pages, links, done } = await collectScan(
      { url: site.url('/'), scanDepth: 3 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);

    const titles = Object.fromEntries(pages.map((page) => [page.url, page.title]));
    expect(titles).toMatchObject({
      [site.url('/gzip.html')]: 'gzip',
      [site.url('/deflate.html')]: 'deflate',
      [site.url('/br.html')]: 'br',
      [site.url('/windows-1252.html')]: 'Café crème',
      [site.url('/gbk-meta-charset.html')]: '中文',
      [site.url('/gbk-meta-http-equiv.html')]: '链接',
    });

    const found = links.filter((link) => link.source !== site.url('/'));
    // Decoded with the right charset, the written paths turn into these percent-encoded UTF-8 URLs.
    expect(found.map((link) => link.url).sort()).toEqual(
      [
        '/from-gzip.html',
        '/from-deflate.html',
        '/from-br.html',
        '/caf%C3%A9.html', // /café.html
        '/%E4%B8%AD%E6%96%87.html', // /中文.html
        '/%E9%93%BE%E6%8E%A5.html', // /链接.html
      ]
        .map((path) => site.url(path))
        .sort(),
    );
    expect(urlOutcomes(links).every((outcome) => outcome.state === 'ok')).toBe(true);
  });
});
