// Internal or external: same host name ignoring a leading www., any scheme, same port. Internal
// pages are crawled; external links are checked once and never crawled.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  linksPage,
  startTestSite,
  testCertificates,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const names = ['site.test', 'www.site.test', 'blog.site.test', 'cdn.other.test'];
const lookup = createLookup(names);
const certificates = testCertificates(names);
let site: TestSite;
let other: TestSite;

beforeAll(async () => {
  other = await startTestSite(
    {
      '/ext.html': linksPage(['/ext-child.html']),
      '/other-port.html': linksPage(['/other-port-child.html']),
    },
    { host: 'cdn.other.test' },
  );
  // HTTPS and HTTP on one port, so https://site.test:port/ is the same site as http://site.test:port/.
  site = await startTestSite(
    {
      '/a.html': linksPage(['/a-child.html', other.url('/ext.html')]),
      '/a-child.html': 'leaf a',
      '/b.html': linksPage(['/b-child.html']),
      '/b-child.html': 'leaf b',
      '/c.html': linksPage(['/c-child.html']),
      '/c-child.html': 'leaf c',
      '/blog.html': linksPage(['/blog-child.html']),
      '/blog-child.html': 'never crawled',
    },
    { host: 'site.test', tls: certificates.trusted },
  );
  // Routes are read at request time: the start page names the port, known only now.
  site.routes['/'] = linksPage([
    '/a.html',
    site.url('/b.html', { host: 'www.site.test', protocol: 'http' }),
    site.url('/c.html', { protocol: 'https' }),
    site.url('/blog.html', { host: 'blog.site.test', protocol: 'http' }),
    `http://site.test:${other.port}/other-port.html`,
    other.url('/ext.html'),
  ]);
});
afterAll(async () => {
  await site.close();
  await other.close();
});

describe('site scope', () => {
  it('crawls www/bare and http/https of the start host, and only checks other hosts and ports', async () => {
    const start = site.url('/', { protocol: 'http' });
    const { pages, links, done } = await collectScan(
      { url: start, scanDepth: 3 },
      { lookup, ca: certificates.authority.cert },
    );
    const at = (path: string, host = 'site.test', protocol: 'http' | 'https' = 'http') =>
      site.url(path, { host, protocol });

    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => page.finalUrl).sort()).toEqual(
      [
        at('/'),
        at('/a.html'),
        at('/a-child.html'),
        at('/b.html', 'www.site.test'),
        at('/b-child.html', 'www.site.test'),
        at('/c.html', 'site.test', 'https'),
        at('/c-child.html', 'site.test', 'https'),
      ].sort(),
    );
    const internalByUrl = Object.fromEntries(links.map((link) => [link.url, link.internal]));
    expect(internalByUrl).toEqual({
      [at('/a.html')]: true,
      [at('/a-child.html')]: true,
      [at('/b.html', 'www.site.test')]: true,
      [at('/b-child.html', 'www.site.test')]: true,
      [at('/c.html', 'site.test', 'https')]: true,
      [at('/c-child.html', 'site.test', 'https')]: true,
      [at('/blog.html', 'blog.site.test')]: false,
      [`http://site.test:${other.port}/other-port.html`]: false,
      [other.url('/ext.html')]: false,
    });
    expect(urlOutcomes(links).every((outcome) => outcome.state === 'ok')).toBe(true);

    // External targets: one check each (HEAD answered 200), their links never followed.
    expect(site.requests.filter((r) => r.host === 'blog.site.test').map((r) => r.method)).toEqual([
      'HEAD',
    ]);
    expect(
      other.requests.filter((r) => r.path !== '/robots.txt').map((r) => [r.method, r.path]),
    ).toEqual(
      expect.arrayContaining([
        ['HEAD', '/ext.html'],
        ['HEAD', '/other-port.html'],
      ]),
    );
    expect(other.requestedPaths().sort()).toEqual(['/ext.html', '/other-port.html']);
    expect(other.requests.filter((r) => r.path === '/ext.html')).toHaveLength(1);
    expect(site.requestedPaths()).not.toContain('/blog-child.html');
  });
});
