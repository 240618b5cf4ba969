// Stylesheets as link sources (issue 35): a linked stylesheet is fetched once per scan and read
// for its @import and url() references, each checked as a link whose source is the stylesheet,
// resolved against the stylesheet's own address, at its line and column inside the stylesheet.
// @import chains are followed (a loop is read once per stylesheet); fonts and images of a page's
// stylesheets count in its size. `Link:` response headers and sitemap entries are link sources
// too (the header's links belong to the page, line 0; a sitemap's to the sitemap, at its <loc>).
import { FailureReason } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  eventsOfType,
  htmlPage,
  positionOf,
  sizedFile,
  startTestSite,
  type CollectedScan,
  type TestSite,
} from '../test-support/index.js';

const mainCss = [
  '/* the theme */',
  '@charset "utf-8";',
  '@import "missing.css";',
  '@import url(parts/loop-a.css);',
  '@font-face { font-family: f; src: url("../fonts/missing.woff2") format("woff2"); }',
  'body {',
  '  background: #fff url(img/missing-bg.png) no-repeat;',
  '}',
  '.icon { mask: url(#clip) } /* url(commented-out.png) */',
].join('\n');

const goodCss = [
  '@font-face { font-family: g; src: url(/fonts/ok.woff2) format("woff2"), url(\'../fonts/ok.ttf\'); }',
  '.x { background-image: image-set("../img/ok.png" 1x, url(../img/ok@2x.png) 2x) }',
].join('\n');

const loopA = '@import "loop-b.css";\n.a { background: url(../../img/ok.png) }';
const loopB = '@import url("loop-a.css");';

const pages = ['/p1.html', '/p2.html', '/p3.html', '/p4.html', '/p5.html'];
const head = '<link rel="stylesheet" href="/css/main.css">';
let site: TestSite;
let scan: CollectedScan;

beforeAll(async () => {
  site = await startTestSite({
    '/': htmlPage(
      pages.map((page) => `<a href="${page}">${page}</a>`).join('\n'),
      `${head}\n<link rel="stylesheet" href="/css/good.css">`,
    ),
    ...Object.fromEntries(pages.map((page) => [page, htmlPage(`<p>${page}</p>`, head)])),
    '/css/main.css': { headers: { 'content-type': 'text/css' }, body: mainCss },
    '/css/good.css': { headers: { 'content-type': 'text/css; charset=utf-8' }, body: goodCss },
    '/css/parts/loop-a.css': { headers: { 'content-type': 'text/css' }, body: loopA },
    '/css/parts/loop-b.css': { headers: { 'content-type': 'text/css' }, body: loopB },
    '/fonts/ok.woff2': sizedFile(4000, 'font/woff2'),
    '/fonts/ok.ttf': sizedFile(6000, 'font/ttf'),
    '/img/ok.png': sizedFile(1000, 'image/png'),
    '/img/ok@2x.png': sizedFile(2000, 'image/png'),
  });
  scan = await collectScan({ url: site.url('/'), scanDepth: 3 });
});
afterAll(() => site.close());

const fromStylesheet = (path: string) =>
  scan.links.filter((link) => link.source === site.url(path));

describe('a linked stylesheet', () => {
  it('reports its broken @import, web font and background image, with the stylesheet as source', () => {
    const broken = scan.links.filter((link) => link.check.state === 'broken');
    const expected = [
      ['@import', '/css/missing.css', '"missing.css"'],
      ['url()', '/fonts/missing.woff2', 'url("../fonts/missing.woff2")'],
      ['url()', '/css/img/missing-bg.png', 'url(img/missing-bg.png)'],
    ].map(([attribute, path, written]) => ({
      source: site.url('/css/main.css'),
      url: site.url(path),
      element: 'css',
      attribute,
      ...positionOf(mainCss, written!),
      reason: FailureReason.NotFound,
    }));
    expect(
      broken.map((link) => ({
        source: link.source,
        url: link.url,
        element: link.element,
        attribute: link.attribute,
        line: link.line,
        column: link.column,
        reason: link.check.state === 'broken' ? link.check.reason : undefined,
      })),
    ).toEqual(expected);
    // "missing.css line 3 column 9", as a user reads the stylesheet.
    expect(expected[0]).toMatchObject({ line: 3, column: 9 });
  });

  it('a working stylesheet raises no alarm, and what it references is checked', () => {
    const links = fromStylesheet('/css/good.css');
    expect(links.map((link) => [link.url, link.check.state])).toEqual([
      [site.url('/fonts/ok.woff2'), 'ok'],
      [site.url('/fonts/ok.ttf'), 'ok'],
      [site.url('/img/ok.png'), 'ok'],
      [site.url('/img/ok@2x.png'), 'ok'],
    ]);
    // Comments and fragment-only url(#id) (an element of the page using it) are no links.
    expect(fromStylesheet('/css/main.css').map((link) => link.url)).not.toContain(
      site.url('/css/commented-out.png'),
    );
    expect(fromStylesheet('/css/main.css')).toHaveLength(4);
  });

  it('follows an @import loop, reading each stylesheet of it once', () => {
    expect(fromStylesheet('/css/parts/loop-a.css').map((link) => link.url)).toEqual([
      site.url('/css/parts/loop-b.css'),
      site.url('/img/ok.png'),
    ]);
    expect(fromStylesheet('/css/parts/loop-b.css').map((link) => link.url)).toEqual([
      site.url('/css/parts/loop-a.css'),
    ]);
    expect(site.requestsFor('/css/parts/loop-a.css')).toHaveLength(1);
    expect(site.requestsFor('/css/parts/loop-b.css')).toHaveLength(1);
    expect(scan.done.status).toBeDefined();
  });

  it('is fetched once however many pages link it', () => {
    const linking = scan.links.filter((link) => link.url === site.url('/css/main.css'));
    expect(linking.map((link) => link.source).sort()).toEqual(
      ['/', ...pages].map((page) => site.url(page)).sort(),
    );
    expect(site.requestsFor('/css/main.css')).toHaveLength(1);
    // Its references are reported once, from the stylesheet, not once per page.
    expect(scan.links.filter((link) => link.url === site.url('/fonts/missing.woff2'))).toHaveLength(
      1,
    );
  });

  it('its fonts and images count in the size of the pages that use it, and in file types', () => {
    const sizes = eventsOfType(scan.events, 'page-size');
    const home = sizes.find((size) => size.page === site.url('/'))!;
    const fonts = home.contents.filter((entry) => entry.contentType.startsWith('font/'));
    expect(fonts).toEqual([
      { contentType: 'font/ttf', totalSize: 6000, count: 1 },
      { contentType: 'font/woff2', totalSize: 4000, count: 1 },
    ]);
    // The images of good.css and of the imported loop-a.css, each once.
    expect(home.contents.find((entry) => entry.contentType === 'image/png')).toEqual({
      contentType: 'image/png',
      totalSize: 3000,
      count: 2,
    });
    // A page that uses only main.css gets its imports' resources (loop-a.css's image).
    const page = sizes.find((size) => size.page === site.url('/p1.html'))!;
    expect(page.contents.find((entry) => entry.contentType === 'image/png')?.count).toBe(1);
    expect(scan.done.summary.fileTypes.map((type) => type.contentType)).toEqual(
      expect.arrayContaining(['font/woff2', 'font/ttf', 'text/css']),
    );
  });
});

describe('a hostile stylesheet', () => {
  it('is read up to the cap on links per page, the rest reported as not read', async () => {
    const rules = Array.from(
      { length: 500 },
      (_, index) => `.r${index} { background: url(/i/${index}.png) }`,
    );
    const hostile = await startTestSite({
      '/': htmlPage('<p>x</p>', '<link rel="stylesheet" href="/many.css">'),
      '/many.css': { headers: { 'content-type': 'text/css' }, body: rules.join('\n') },
    });
    try {
      const { links } = await collectScan({ url: hostile.url('/') }, { maxLinksPerPage: 20 });
      const fromSheet = links.filter((link) => link.source === hostile.url('/many.css'));
      expect(fromSheet).toHaveLength(21);
      expect(fromSheet.find((link) => link.check.state === 'skipped')).toMatchObject({
        line: 21,
        check: { state: 'skipped', cause: 'link-cap' },
      });
      expect(hostile.requestedPaths().filter((path) => path.startsWith('/i/'))).toHaveLength(20);
    } finally {
      await hostile.close();
    }
  });
});

describe('Link: response headers', () => {
  it('are links of the page: a stylesheet there is read, a preloaded font checked', async () => {
    const headerSite = await startTestSite({
      '/': {
        headers: {
          'content-type': 'text/html',
          link: '</css/header.css>; rel=stylesheet, </fonts/gone.woff2>; rel=preload; as=font; crossorigin',
        },
        body: htmlPage('<p>styled by a header</p>'),
      },
      '/css/header.css': {
        headers: { 'content-type': 'text/css' },
        body: 'body {\n  background: url(paper.png);\n}',
      },
    });
    try {
      const { links } = await collectScan({ url: headerSite.url('/') });
      const summary = links.map((link) => ({
        source: link.source,
        url: link.url,
        element: link.element,
        attribute: link.attribute,
        line: link.line,
        column: link.column,
        state: link.check.state,
      }));
      expect(summary).toEqual(
        expect.arrayContaining([
          {
            source: headerSite.url('/'),
            url: headerSite.url('/css/header.css'),
            element: 'header',
            attribute: 'Link',
            line: 0,
            column: 0,
            state: 'ok',
          },
          {
            source: headerSite.url('/'),
            url: headerSite.url('/fonts/gone.woff2'),
            element: 'header',
            attribute: 'Link',
            line: 0,
            column: 0,
            state: 'broken',
          },
          {
            source: headerSite.url('/css/header.css'),
            url: headerSite.url('/css/paper.png'),
            element: 'css',
            attribute: 'url()',
            line: 2,
            column: 15,
            state: 'broken',
          },
        ]),
      );
      expect(summary).toHaveLength(3);
    } finally {
      await headerSite.close();
    }
  });
});

describe('sitemap entries', () => {
  it('are links whose source is the sitemap, at their <loc>', async () => {
    const mapped = await startTestSite({
      '/': htmlPage('<a href="/listed.html">listed</a>'),
      '/listed.html': htmlPage('<p>listed</p>'),
      '/orphan.html': htmlPage('<p>only the sitemap lists me</p>'),
    });
    const sitemap = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      `  <url><loc>${mapped.url('/listed.html')}</loc></url>`,
      `  <url><loc>${mapped.url('/orphan.html')}</loc></url>`,
      `  <url><loc>${mapped.url('/gone.html')}</loc></url>`,
      '</urlset>',
    ].join('\n');
    mapped.routes['/sitemap.xml'] = {
      headers: { 'content-type': 'application/xml' },
      body: sitemap,
    };
    try {
      const { links, pages } = await collectScan({
        url: mapped.url('/'),
        scanDepth: 3,
        checkPageInclusion: true,
      });
      const fromSitemap = links
        .filter((link) => link.source === mapped.url('/sitemap.xml'))
        .map((link) => [
          link.url,
          link.element,
          link.attribute,
          link.line,
          link.column,
          link.check.state,
        ]);
      expect(fromSitemap.sort()).toEqual(
        [
          [mapped.url('/gone.html'), 'sitemap', 'loc', 5, 8, 'broken'],
          [mapped.url('/listed.html'), 'sitemap', 'loc', 3, 8, 'ok'],
          [mapped.url('/orphan.html'), 'sitemap', 'loc', 4, 8, 'ok'],
        ].sort(),
      );
      // An entry only the sitemap lists is still crawled (orphans are found).
      expect(pages.map((page) => page.url)).toContain(mapped.url('/orphan.html'));
    } finally {
      await mapped.close();
    }
  });
});

describe('an external stylesheet', () => {
  it('is read too: its missing font is broken, with the stylesheet as source', async () => {
    const library =
      '@font-face { src: url(fonts/gone.woff2) }\n.logo { background: url(/img/ok.png) }';
    const cdn = await startTestSite(
      {
        '/lib/theme.css': { headers: { 'content-type': 'text/css' }, body: library },
        '/img/ok.png': sizedFile(100, 'image/png'),
      },
      { host: 'localhost' },
    );
    const own = await startTestSite({
      '/': htmlPage('<p>home</p>', `<link rel="stylesheet" href="${cdn.url('/lib/theme.css')}">`),
    });
    try {
      const { links } = await collectScan({ url: own.url('/'), scanDepth: 3 });
      const ofLibrary = links
        .filter((link) => link.source === cdn.url('/lib/theme.css'))
        .map((link) => [link.url, link.line, link.column, link.check.state]);
      expect(ofLibrary.sort()).toEqual(
        [
          [cdn.url('/lib/fonts/gone.woff2'), 1, 19, 'broken'],
          [cdn.url('/img/ok.png'), 2, 21, 'ok'],
        ].sort(),
      );
      // Read once with GET (its references), never crawled as a page of the site.
      expect(cdn.methodsFor('/lib/theme.css')).toEqual(['GET']);
    } finally {
      await own.close();
      await cdn.close();
    }
  });
});

describe('a stylesheet first met as something else', () => {
  it('is read for its references once a page links it as a stylesheet', async () => {
    const theme = '@import "gone.css";\nbody { background: url(ok.png) }';
    const late = await startTestSite({
      '/': htmlPage('<a href="/css/theme.css">the theme, as a file</a>\n<a href="/a.html">a</a>'),
      '/a.html': htmlPage('<a href="/later.html">later</a>'),
      '/later.html': htmlPage('<p>styled</p>', '<link rel="stylesheet" href="/css/theme.css">'),
      '/css/theme.css': { headers: { 'content-type': 'text/css' }, body: theme },
      '/css/ok.png': sizedFile(100, 'image/png'),
    });
    try {
      const { links } = await collectScan({ url: late.url('/'), scanDepth: 3 });
      const ofTheme = links
        .filter((link) => link.source === late.url('/css/theme.css'))
        .map((link) => [link.url, link.attribute, link.line, link.column, link.check.state]);
      expect(ofTheme).toEqual([
        [late.url('/css/gone.css'), '@import', 1, 9, 'broken'],
        [late.url('/css/ok.png'), 'url()', 2, 20, 'ok'],
      ]);
      // Both links to the stylesheet itself are answered, once it is read.
      const toTheme = links.filter((link) => link.url === late.url('/css/theme.css'));
      expect(toTheme.map((link) => [link.element, link.check.state])).toEqual([
        ['a', 'ok'],
        ['link', 'ok'],
      ]);
    } finally {
      await late.close();
    }
  });
});

describe('robots.txt and sitemap indexes', () => {
  it('make the sitemaps they name links, so a missing sitemap is broken at its line', async () => {
    const mapped = await startTestSite({
      '/': htmlPage('<a href="/listed.html">listed</a>'),
      '/listed.html': htmlPage('<p>listed</p>'),
    });
    mapped.routes['/robots.txt'] = {
      headers: { 'content-type': 'text/plain' },
      body: [
        'User-agent: *',
        'Disallow: /private/',
        '',
        `Sitemap: ${mapped.url('/sitemap-index.xml')}`,
        `  sitemap:   ${mapped.url('/no-such-sitemap.xml')}  # moved`,
      ].join('\n'),
    };
    mapped.routes['/sitemap-index.xml'] = {
      headers: { 'content-type': 'application/xml' },
      body: [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        `  <sitemap><loc>${mapped.url('/pages.xml')}</loc></sitemap>`,
        `  <sitemap><loc>${mapped.url('/gone.xml')}</loc></sitemap>`,
        '</sitemapindex>',
      ].join('\n'),
    };
    mapped.routes['/pages.xml'] = {
      headers: { 'content-type': 'application/xml' },
      body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${mapped.url('/listed.html')}</loc></url></urlset>`,
    };
    try {
      const { links } = await collectScan({
        url: mapped.url('/'),
        scanDepth: 3,
        checkPageInclusion: true,
      });
      const sources = [mapped.url('/robots.txt'), mapped.url('/sitemap-index.xml')];
      const ofSitemaps = links
        .filter((link) => sources.includes(link.source))
        .map((link) => [
          link.source.slice(mapped.url('/').length),
          link.url.slice(mapped.url('/').length),
          link.element,
          link.attribute,
          link.line,
          link.column,
          link.check.state,
        ]);
      expect(ofSitemaps.sort()).toEqual(
        [
          ['robots.txt', 'sitemap-index.xml', 'robots', 'Sitemap', 4, 10, 'ok'],
          ['robots.txt', 'no-such-sitemap.xml', 'robots', 'Sitemap', 5, 14, 'broken'],
          ['sitemap-index.xml', 'pages.xml', 'sitemap', 'loc', 3, 12, 'ok'],
          ['sitemap-index.xml', 'gone.xml', 'sitemap', 'loc', 4, 12, 'broken'],
        ].sort(),
      );
    } finally {
      await mapped.close();
    }
  });
});
