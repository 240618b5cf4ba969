// Page inclusion (checkPageInclusion): what decides whether each page can be indexed and what the
// site's sitemap says about it. The sitemap comes from robots.txt (an index, followed, with a
// gzip part) or else /sitemap.xml; every entry is fetched, so orphans, broken and redirected
// entries are found; indexable pages missing from the sitemap are counted.
import { gzipSync } from 'node:zlib';
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageInclusionEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  linksPage,
  redirect,
  sizedFile,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'plain.test', 'bare.test', 'popular.test']);
let site: TestSite;
let plain: TestSite;
let bare: TestSite;
let popular: TestSite;

/** /p1.html … /p25.html, each linking to /popular.html twice. */
const linkingPages = Array.from({ length: 25 }, (_, index) => `/p${index + 1}.html`);

const xml = (body: string) => ({
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`,
});
const urlset = (urls: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((url) => `  <url><loc>${url}</loc></url>`)
    .join('\n')}\n</urlset>`;
const sitemapIndex = (sitemaps: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps
    .map((url) => `  <sitemap><loc>${url}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>`;
const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });

const listedInPages = [
  '/',
  '/about.html',
  '/orphan.html',
  '/gone.html',
  '/old.html',
  '/noindex-meta.html',
];
const listedInGzip = ['/noindex-header.html', '/canonical-elsewhere.html', '/files/guide.pdf'];

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': linksPage([
        '/about.html',
        '/about.html',
        '/unlisted.html',
        '/noindex-meta.html',
        '/noindex-header.html',
        '/canonical-elsewhere.html',
        '/private/page.html',
      ]),
      '/about.html': htmlPage(
        '<a href="/">home</a>\n<a href="/about.html">itself</a>',
        '<link rel="canonical" href="/about.html">',
      ),
      '/unlisted.html': linksPage(['/about.html']),
      '/noindex-meta.html': htmlPage(
        '<a href="/about-us">about, through a redirect</a>',
        '<meta name="robots" content="noindex, follow">',
      ),
      '/about-us': redirect('/about.html'),
      '/noindex-header.html': { headers: { 'x-robots-tag': 'noindex' }, body: htmlPage('hidden') },
      '/canonical-elsewhere.html': htmlPage('a copy', '<link rel="canonical" href="/about.html">'),
      '/private/page.html': htmlPage('disallowed for robots, crawled all the same'),
      '/orphan.html': linksPage(['/orphan-child.html']),
      '/orphan-child.html': 'checked, not crawled',
      '/old.html': redirect('/about.html'),
      '/files/guide.pdf': sizedFile(1000, 'application/pdf'),
    },
    { host: 'site.test' },
  );
  const on = (path: string) => site.url(path);
  site.routes['/robots.txt'] = text(
    `User-agent: *\nDisallow: /private/\n\nSitemap: ${on('/sitemaps/index.xml')}\n`,
  );
  site.routes['/sitemaps/index.xml'] = xml(
    sitemapIndex([on('/sitemaps/pages.xml'), on('/sitemaps/more.xml.gz')]),
  );
  site.routes['/sitemaps/pages.xml'] = xml(urlset(listedInPages.map(on)));
  site.routes['/sitemaps/more.xml.gz'] = {
    headers: { 'content-type': 'application/gzip' },
    body: gzipSync(xml(urlset(listedInGzip.map(on))).body),
  };

  plain = await startTestSite(
    { '/': linksPage(['/a.html', '/b.html']), '/a.html': 'a', '/b.html': 'b' },
    { host: 'plain.test' },
  );
  plain.routes['/sitemap.xml'] = xml(urlset([plain.url('/'), plain.url('/a.html')]));
  bare = await startTestSite(
    { '/': linksPage(['/a.html']), '/a.html': 'a' },
    { host: 'bare.test' },
  );
  popular = await startTestSite(
    {
      '/': linksPage(linkingPages),
      '/popular.html': 'popular',
      ...Object.fromEntries(
        linkingPages.map((path) => [path, linksPage(['/popular.html', '/popular.html'])]),
      ),
    },
    { host: 'popular.test' },
  );
});
afterAll(async () => {
  await site.close();
  await plain.close();
  await bare.close();
  await popular.close();
});

/** A page-inclusion event: an indexable, linked page unless told otherwise. */
function inclusion(
  on: TestSite,
  path: string,
  fields: Partial<Omit<PageInclusionEvent, 'type' | 'page'>>,
): PageInclusionEvent {
  return {
    type: 'page-inclusion',
    page: on.url(path),
    statusCode: 200,
    inboundLinks: 0,
    inboundSources: [],
    indexable: true,
    notIndexableBecause: [],
    inSitemap: false,
    orphan: false,
    ...fields,
  };
}

const byPage = (a: PageInclusionEvent, b: PageInclusionEvent) => a.page.localeCompare(b.page);
const sortedSources = (event: PageInclusionEvent) => ({
  ...event,
  inboundSources: [...event.inboundSources].sort(),
});

function expectedSiteInclusion(): PageInclusionEvent[] {
  const from = (...paths: string[]) => ({
    inboundLinks: paths.length,
    inboundSources: [...new Set(paths.map((path) => site.url(path)))].sort(),
  });
  const notIndexable = (...reasons: string[]) => ({
    indexable: false,
    notIndexableBecause: reasons,
  });
  const about = site.url('/about.html');
  return [
    inclusion(site, '/', { ...from('/about.html'), inSitemap: true }),
    // Twice from /, once from /unlisted.html, once through /about-us (a redirect to it), once
    // from the canonical link of /canonical-elsewhere.html; its link to itself does not count.
    inclusion(site, '/about.html', {
      ...from('/', '/', '/unlisted.html', '/noindex-meta.html', '/canonical-elsewhere.html'),
      canonical: about,
      inSitemap: true,
    }),
    inclusion(site, '/unlisted.html', from('/')),
    inclusion(site, '/noindex-meta.html', {
      ...from('/'),
      ...notIndexable('noindex-meta'),
      inSitemap: true,
    }),
    inclusion(site, '/noindex-header.html', {
      ...from('/'),
      ...notIndexable('noindex-header'),
      inSitemap: true,
    }),
    inclusion(site, '/canonical-elsewhere.html', {
      ...from('/'),
      ...notIndexable('canonical-elsewhere'),
      canonical: about,
      inSitemap: true,
    }),
    inclusion(site, '/private/page.html', { ...from('/'), ...notIndexable('robots-txt') }),
    inclusion(site, '/orphan.html', { inSitemap: true, orphan: true }),
    // Sitemap entries that are not crawled pages.
    inclusion(site, '/gone.html', { statusCode: 404, ...notIndexable('status'), inSitemap: true }),
    inclusion(site, '/old.html', {
      // Which status a redirected entry reports (the 301 or where it leads) is not part of the
      // contract; that it is a redirect is.
      statusCode: expect.any(Number) as number,
      ...notIndexable('redirect'),
      inSitemap: true,
    }),
    inclusion(site, '/files/guide.pdf', { ...notIndexable('not-html'), inSitemap: true }),
  ].sort(byPage);
}

const scanSite = (checkPageInclusion = true) =>
  collectScan(
    { url: site.url('/'), scanDepth: 3, checkPageInclusion, respectRobotsTxt: false },
    { lookup },
  );

describe('page inclusion', () => {
  it('reports inbound links, indexability and sitemap presence for every page and sitemap entry', async () => {
    const { events, pages, done } = await scanSite();
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => page.finalUrl).sort()).toEqual(
      [
        '/',
        '/about.html',
        '/canonical-elsewhere.html',
        '/noindex-header.html',
        '/noindex-meta.html',
        '/orphan.html',
        '/private/page.html',
        '/unlisted.html',
      ].map((path) => site.url(path)),
    );
    const inclusions = eventsOfType(events, 'page-inclusion').map(sortedSources).sort(byPage);
    expect(inclusions).toEqual(expectedSiteInclusion());
  });

  it('sums up the sitemap: files read, entries, orphans, broken, redirected, missing', async () => {
    const { events, done } = await scanSite();
    const sitemap = done.summary.sitemap;
    const counts = sitemap && {
      urls: sitemap.urls,
      orphans: sitemap.orphans,
      broken: sitemap.broken,
      redirected: sitemap.redirected,
      missingFromSitemap: sitemap.missingFromSitemap,
    };
    // notIndexable is pinned by the next test.
    expect([...(sitemap?.sitemaps ?? [])].sort()).toEqual([
      site.url('/sitemaps/index.xml'),
      site.url('/sitemaps/more.xml.gz'),
      site.url('/sitemaps/pages.xml'),
    ]);
    expect(counts).toEqual({
      urls: listedInPages.length + listedInGzip.length,
      orphans: 1, // /orphan.html
      broken: 1, // /gone.html
      redirected: 1, // /old.html
      missingFromSitemap: 1, // /unlisted.html (/private/page.html is not indexable)
    });
    // The same numbers, from the events.
    const inclusions = eventsOfType(events, 'page-inclusion');
    const listed = inclusions.filter((event) => event.inSitemap);
    const because = (reason: string) =>
      listed.filter((event) => event.notIndexableBecause.includes(reason)).length;
    expect(counts).toEqual({
      urls: listed.length,
      orphans: listed.filter((event) => event.orphan).length,
      broken: because('status'),
      redirected: because('redirect'),
      missingFromSitemap: inclusions.filter((event) => event.indexable && !event.inSitemap).length,
    });
  });

  // Broken and redirected entries have their own counts; every other listed entry whose event says
  // "not indexable" is counted here, the PDF (not-html) included, so the summary agrees with the
  // events it sums up.
  it('counts every listed entry its event calls not indexable, beyond broken and redirected ones', async () => {
    const { events, done } = await scanSite();
    const notIndexable = eventsOfType(events, 'page-inclusion').filter(
      (event) =>
        event.inSitemap &&
        !event.indexable &&
        !event.notIndexableBecause.includes('status') &&
        !event.notIndexableBecause.includes('redirect'),
    );
    expect(notIndexable.map((event) => event.page).sort()).toEqual(
      [
        '/canonical-elsewhere.html',
        '/files/guide.pdf',
        '/noindex-header.html',
        '/noindex-meta.html',
      ].map((path) => site.url(path)),
    );
    expect(done.summary.sitemap?.notIndexable).toBe(4);
  });

  it('fetches every sitemap entry; an orphan is crawled, its own links only checked', async () => {
    const before = site.requests.length;
    await scanSite();
    const methods = (path: string) =>
      site.requests
        .slice(before)
        .filter((request) => request.path === path)
        .map((request) => request.method);
    expect(methods('/robots.txt')).toEqual(['GET']);
    // A sitemap is read once (GET) and checked once as a link of robots.txt or of its index
    // (HEAD, or GET where the answer to HEAD is not enough): two requests, never more.
    for (const sitemap of ['/sitemaps/index.xml', '/sitemaps/pages.xml', '/sitemaps/more.xml.gz']) {
      expect(methods(sitemap), sitemap).toHaveLength(2);
      expect(methods(sitemap), sitemap).toContain('GET');
    }
    expect(methods('/sitemap.xml')).toEqual([]);
    expect(methods('/orphan.html')).toEqual(['GET']);
    expect(methods('/orphan-child.html')).toEqual(['HEAD']);
    expect(methods('/gone.html').length).toBeGreaterThan(0);
    expect(methods('/files/guide.pdf').length).toBeGreaterThan(0);
  });

  it('reads /sitemap.xml when robots.txt names no sitemap', async () => {
    const { events, done } = await collectScan(
      { url: plain.url('/'), scanDepth: 3, checkPageInclusion: true },
      { lookup },
    );
    expect(eventsOfType(events, 'page-inclusion').sort(byPage)).toEqual([
      inclusion(plain, '/', { inSitemap: true }),
      inclusion(plain, '/a.html', {
        inboundLinks: 1,
        inboundSources: [plain.url('/')],
        inSitemap: true,
      }),
      inclusion(plain, '/b.html', { inboundLinks: 1, inboundSources: [plain.url('/')] }),
    ]);
    expect(done.summary.sitemap).toEqual({
      sitemaps: [plain.url('/sitemap.xml')],
      urls: 2,
      orphans: 0,
      broken: 0,
      redirected: 0,
      notIndexable: 0,
      missingFromSitemap: 1,
    });
  });

  it('leaves out sitemap entries that are not addresses, and finishes the scan', async () => {
    plain.routes['/sitemap.xml'] = xml(
      urlset([
        plain.url('/'),
        'http://[not-an-address/',
        'https://exa mple.test/',
        plain.url('/a.html'),
      ]),
    );
    try {
      const { done } = await collectScan(
        { url: plain.url('/'), scanDepth: 3, checkPageInclusion: true },
        { lookup },
      );
      expect(done.status).toBe(ScanStatus.Complete);
      expect(done.summary.sitemap?.urls).toBe(2);
    } finally {
      plain.routes['/sitemap.xml'] = xml(urlset([plain.url('/'), plain.url('/a.html')]));
    }
  });

  it('counts no page missing from a sitemap the site does not have', async () => {
    const { events, done } = await collectScan(
      { url: bare.url('/'), scanDepth: 3, checkPageInclusion: true },
      { lookup },
    );
    expect(eventsOfType(events, 'page-inclusion').sort(byPage)).toEqual([
      inclusion(bare, '/', {}),
      inclusion(bare, '/a.html', { inboundLinks: 1, inboundSources: [bare.url('/')] }),
    ]);
    expect(done.summary.sitemap).toEqual({
      sitemaps: [],
      urls: 0,
      orphans: 0,
      broken: 0,
      redirected: 0,
      notIndexable: 0,
      missingFromSitemap: 0,
    });
  });

  it('counts every inbound link but lists at most 20 linking pages', async () => {
    const { events } = await collectScan(
      { url: popular.url('/'), scanDepth: 3, checkPageInclusion: true },
      { lookup },
    );
    const event = eventsOfType(events, 'page-inclusion').find(
      (candidate) => candidate.page === popular.url('/popular.html'),
    );
    expect(event?.inboundLinks).toBe(50);
    expect(event?.inboundSources).toHaveLength(20);
    expect(new Set(event?.inboundSources).size).toBe(20);
    const linking = new Set(linkingPages.map((path) => popular.url(path)));
    expect(event?.inboundSources.filter((source) => !linking.has(source))).toEqual([]);
  });

  it('emits no page-inclusion events and reads no sitemap when checkPageInclusion is off', async () => {
    const before = site.requests.length;
    const { events, done } = await scanSite(false);
    expect(eventsOfType(events, 'page-inclusion')).toEqual([]);
    expect(done.summary.sitemap).toBeUndefined();
    const paths = site.requests.slice(before).map((request) => request.path);
    expect(paths.filter((path) => path.startsWith('/sitemap'))).toEqual([]);
    // Without the sitemap nothing leads to the orphan.
    expect(paths).not.toContain('/orphan.html');
  });
});
