// Every place a link can hide in a page: element, attribute, kind, position; what is not a link;
// non-HTTP schemes; missing and unparseable targets; <base href>.
import { FailureReason } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkEvent, LinkKind } from '../index.js';
import {
  collectScan,
  createLookup,
  htmlPage,
  positionOf,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const everySource = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=/refreshed.html">
<title>Every link source</title>
<link rel="stylesheet" href="/style.css">
<link rel="icon" href="/favicon.ico">
<link rel="apple-touch-icon" href="/touch-icon.png">
<link rel="canonical" href="/canonical.html">
<link rel="alternate" hreflang="zh-CN" href="/zh/">
<link rel="preconnect" href="https://fonts.example.invalid">
<link rel="dns-prefetch" href="//prefetch.example.invalid">
<script src="/app.js"></script>
<script>var notALink = "/inline.js";</script>
<style>
  @import url("/imported.css");
  .hero { background: url('/img/hero.png') no-repeat; }
</style>
</head>
<body>
<a href="/a.html">a</a> <a href="/a2.html">same line</a>
<a
  href="/multiline.html">multi-line tag</a>
<map name="m"><area href="/area.html" alt="area"></map>
<img src="/img/a.png" srcset="/img/a-2x.png 2x, /img/a-3x.png 3x" alt="">
<img srcset="/img/only-srcset.png 1x" alt="">
<picture><source srcset="/img/p.webp 1x, /img/p-2x.webp 2x" type="image/webp"><img src="/img/p.jpg" alt=""></picture>
<iframe src="/frame.html"></iframe>
<iframe srcdoc="<p>inline</p>"></iframe>
<video src="/media/v.mp4" poster="/img/poster.jpg"><source src="/media/v.webm" type="video/webm"><track src="/media/subs.vtt" kind="subtitles"></video>
<audio src="/media/a.mp3"><source src="/media/a.ogg"></audio>
<object data="/media/movie.swf"></object>
<embed src="/media/embed.swf">
<div style="background-image: url(/img/bg.png)">styled</div>
<a name="top">placeholder</a><a>no href at all</a>
<a href="mailto:team@site.test">mail</a>
<a href="tel:+15550100">call</a>
<a href="javascript:void(0)">script</a>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="">
<a href="">empty a</a>
<map name="n"><area href="" alt="empty area"></map>
<img src="" alt="empty src">
<img alt="no src">
<iframe></iframe>
<script src=""></script>
<link rel="stylesheet" href="">
<audio><source src=""></audio>
<embed src="">
<a href="http://[bad">invalid</a>
<form action="/submit"><input name="q"></form>
</body>
</html>
`;

/** element, attribute, URL as written, kind (undefined: not part of the contract), where its `<` is. */
type Expected = [string, string, string, LinkKind | undefined, string];

const fetched: Expected[] = [
  ['meta', 'content', '/refreshed.html', 'page', '<meta http-equiv="refresh"'],
  ['link', 'href', '/style.css', 'stylesheet', '<link rel="stylesheet" href="/style.css"'],
  ['link', 'href', '/favicon.ico', 'icon', '<link rel="icon"'],
  ['link', 'href', '/touch-icon.png', 'icon', '<link rel="apple-touch-icon"'],
  ['link', 'href', '/canonical.html', 'page', '<link rel="canonical"'],
  ['link', 'href', '/zh/', 'page', '<link rel="alternate"'],
  ['script', 'src', '/app.js', 'script', '<script src="/app.js"'],
  ['style', 'css', '/imported.css', undefined, 'url("/imported.css")'],
  ['style', 'css', '/img/hero.png', undefined, "url('/img/hero.png')"],
  ['a', 'href', '/a.html', 'page', '<a href="/a.html"'],
  ['a', 'href', '/a2.html', 'page', '<a href="/a2.html"'],
  ['a', 'href', '/multiline.html', 'page', '<a\n  href="/multiline.html"'],
  ['area', 'href', '/area.html', 'page', '<area href="/area.html"'],
  ['img', 'src', '/img/a.png', 'image', '<img src="/img/a.png"'],
  ['img', 'srcset', '/img/a-2x.png', 'image', '<img src="/img/a.png"'],
  ['img', 'srcset', '/img/a-3x.png', 'image', '<img src="/img/a.png"'],
  ['img', 'srcset', '/img/only-srcset.png', 'image', '<img srcset="/img/only-srcset.png'],
  ['source', 'srcset', '/img/p.webp', 'image', '<source srcset="/img/p.webp'],
  ['source', 'srcset', '/img/p-2x.webp', 'image', '<source srcset="/img/p.webp'],
  ['img', 'src', '/img/p.jpg', 'image', '<img src="/img/p.jpg"'],
  ['iframe', 'src', '/frame.html', 'iframe', '<iframe src="/frame.html"'],
  ['video', 'src', '/media/v.mp4', 'media', '<video src="/media/v.mp4"'],
  ['video', 'poster', '/img/poster.jpg', 'image', '<video src="/media/v.mp4"'],
  ['source', 'src', '/media/v.webm', 'media', '<source src="/media/v.webm"'],
  ['track', 'src', '/media/subs.vtt', 'media', '<track src="/media/subs.vtt"'],
  ['audio', 'src', '/media/a.mp3', 'media', '<audio src="/media/a.mp3"'],
  ['source', 'src', '/media/a.ogg', 'media', '<source src="/media/a.ogg"'],
  ['object', 'data', '/media/movie.swf', 'object', '<object data="/media/movie.swf"'],
  ['embed', 'src', '/media/embed.swf', 'object', '<embed src="/media/embed.swf"'],
  ['div', 'style', '/img/bg.png', undefined, '<div style='],
];

const otherSchemes: Expected[] = [
  ['a', 'href', 'mailto:team@site.test', 'page', '<a href="mailto:'],
  ['a', 'href', 'tel:+15550100', 'page', '<a href="tel:'],
  ['a', 'href', 'javascript:void(0)', 'page', '<a href="javascript:'],
  ['img', 'src', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', 'image', '<img src="data:'],
];

/** An empty href links to the page itself (URL parsing of '' against the page's address). */
const selfLinks: Expected[] = [
  ['a', 'href', '/every-source.html', 'page', '<a href="">'],
  ['area', 'href', '/every-source.html', 'page', '<area href=""'],
];

const missing: Expected[] = [
  ['img', 'src', '', 'image', '<img src="" alt="empty src">'],
  ['img', 'src', '', 'image', '<img alt="no src">'],
  ['iframe', 'src', '', 'iframe', '<iframe></iframe>'],
  ['script', 'src', '', 'script', '<script src=""></script>'],
  ['link', 'href', '', 'stylesheet', '<link rel="stylesheet" href="">'],
  ['source', 'src', '', 'media', '<source src="">'],
  ['embed', 'src', '', 'object', '<embed src="">'],
];

const invalid: Expected[] = [['a', 'href', 'http://[bad', 'page', '<a href="http://[bad"']];

const lookup = createLookup(['site.test', 'www.site.test', 'cdn.other.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      '/every-source.html': everySource,
      '/base.html': htmlPage(
        [
          '<style>.x { background: url(bg-block.png) }</style>',
          '<a href="doc.html">relative</a>',
          '<img src="../img.png" alt="">',
          '<a href="?q=1">query only</a>',
          '<a href="/absolute.html">absolute path</a>',
          '<div style="background: url(bg.png)">styled</div>',
          '<a href="//cdn.other.test:PORT/lib.js">protocol-relative</a>',
        ].join('\n'),
        '<base href="/assets/v2/"><base href="/ignored/">',
      ),
      '/frames.html':
        '<html><frameset cols="50%,50%"><frame src="/left.html"><frame src="/right.html"></frameset></html>',
    },
    { host: 'site.test', fallback: { headers: { 'content-type': 'text/plain' }, body: 'ok' } },
  );
  const base = site.routes['/base.html'] as string;
  site.routes['/base.html'] = base.replace('PORT', String(site.port));
});
afterAll(() => site.close());

/** The fields that say where a link is and what it is, for complete comparisons. */
function shape(link: LinkEvent) {
  return {
    element: link.element,
    attribute: link.attribute,
    target: link.target,
    kind: link.kind,
    line: link.line,
    column: link.column,
  };
}

/** Paths become absolute URLs on the site; other schemes, '' and unparseable text stay as written. */
function absolute(written: string): string {
  return written.startsWith('/') ? site.url(written) : written;
}

function expectedShape([element, attribute, written, kind, needle]: Expected) {
  return {
    element,
    attribute,
    target: absolute(written),
    kind: kind ?? expect.any(String),
    ...positionOf(everySource, needle),
  };
}

const byPosition = <T extends { line: number; column: number; attribute: string; target: string }>(
  a: T,
  b: T,
) =>
  a.line - b.line ||
  a.column - b.column ||
  a.attribute.localeCompare(b.attribute) ||
  a.target.localeCompare(b.target);

const scanEverySource = () =>
  collectScan({ url: site.url('/every-source.html'), scanDepth: 1 }, { lookup });

describe('link sources', () => {
  it('finds every link of every element, with its attribute, kind and the position of its tag', async () => {
    const { links, pages } = await scanEverySource();
    const found = links.filter((link) => link.element !== 'form');
    const expected = [...fetched, ...selfLinks, ...otherSchemes, ...missing, ...invalid].map(
      expectedShape,
    );
    expect(found.map(shape).sort(byPosition)).toEqual(expected.sort(byPosition));
    expect(pages[0]?.linkCount).toBe(links.length);
    expect(links.every((link) => link.source === site.url('/every-source.html'))).toBe(true);
  });

  it('fetches each http(s) link and reports it OK', async () => {
    const { links } = await scanEverySource();
    const httpLinks = links.filter((link) => link.url.startsWith(site.origin));
    expect(httpLinks.map((link) => [link.url, link.internal, link.check.state]).sort()).toEqual(
      [...fetched, ...selfLinks].map(([, , path]) => [site.url(path), true, 'ok']).sort(),
    );
    for (const [, , path] of fetched)
      expect(site.requestsFor(path).length, path).toBeGreaterThan(0);
  });

  it('never fetches what is not a link: inline script text, form actions, preconnect and dns-prefetch hosts', async () => {
    await scanEverySource();
    expect(site.requestsFor('/inline.js')).toEqual([]);
    expect(site.requestsFor('/submit')).toEqual([]);
    expect(lookup.asked).not.toContain('fonts.example.invalid');
    expect(lookup.asked).not.toContain('prefetch.example.invalid');
  });

  it('skips mailto:, tel:, javascript: and data: links (cause scheme) without fetching them', async () => {
    const { links } = await scanEverySource();
    const schemeLinks = links.filter((link) => /^(mailto|tel|javascript|data):/.test(link.target));
    expect(schemeLinks.map((link) => [link.target, link.url, link.check]).sort()).toEqual(
      otherSchemes
        .map(([, , written]) => [
          written,
          written,
          { state: 'skipped', cause: 'scheme', message: expect.any(String) },
        ])
        .sort(),
    );
  });

  it('reports empty and missing required attributes as Source Attribute Missing, unfetched, target empty', async () => {
    const before = site.requests.length;
    const { links } = await scanEverySource();
    const missingLinks = links.filter((link) => link.target === '');
    expect(missingLinks.map(shape).sort(byPosition)).toEqual(
      missing.map(expectedShape).sort(byPosition),
    );
    for (const link of missingLinks) {
      expect(link.url).toBe('');
      expect(link.check).toMatchObject({
        state: 'broken',
        reason: FailureReason.SourceAttributeMissing,
      });
    }
    // Nothing was asked for the page itself again because of an empty href.
    const again = site.requests.slice(before).filter((r) => r.path === '/every-source.html');
    expect(again).toHaveLength(1);
  });

  it('reports an unparseable URL as Invalid Format', async () => {
    const { links } = await scanEverySource();
    const found = links.filter((link) => link.target === 'http://[bad');
    expect(found).toHaveLength(1);
    expect(found[0]?.check).toMatchObject({ state: 'broken', reason: FailureReason.InvalidFormat });
  });
});

describe('<base href>', () => {
  it('resolves every relative URL of the document against the first base', async () => {
    const { links } = await collectScan({ url: site.url('/base.html'), scanDepth: 1 }, { lookup });
    // bg-block.png, doc.html, ../img.png, ?q=1, /absolute.html, bg.png, //cdn.other.test:port/lib.js
    expect(links.map((link) => [link.target, link.check.state]).sort()).toEqual(
      [
        site.url('/assets/v2/bg-block.png'),
        site.url('/assets/v2/doc.html'),
        site.url('/assets/img.png'),
        site.url('/assets/v2/?q=1'),
        site.url('/absolute.html'),
        site.url('/assets/v2/bg.png'),
        `http://cdn.other.test:${site.port}/lib.js`,
      ]
        .map((target) => [target, 'ok'])
        .sort(),
    );
  });
});

describe('frames', () => {
  it('finds <frame src> in a frameset as iframe links', async () => {
    const { links } = await collectScan(
      { url: site.url('/frames.html'), scanDepth: 1 },
      { lookup },
    );
    expect(
      links.map((link) => [link.element, link.attribute, link.kind, link.target]).sort(),
    ).toEqual([
      ['frame', 'src', 'iframe', site.url('/left.html')],
      ['frame', 'src', 'iframe', site.url('/right.html')],
    ]);
  });
});
