// checkAnchors: a link's #fragment is found (an id, or <a name>; as written, then percent-decoded;
// case-sensitive), missing, or unverifiable (not an HTML page we read). Trivial fragments are not
// checked. Pages we do not crawl (too deep, outside the folder, external) are fetched with GET for
// their anchors only, their links never followed. Repeated ids on a crawled page are reported with
// both positions. With checkAnchors off none of this happens and external pages get a HEAD.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnchorCheck, LinkEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  positionOf,
  redirect,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'other.test']);
let site: TestSite;
let other: TestSite;

const targetPage = htmlPage(
  [
    '<h2 id="intro">Intro</h2>',
    '<a name="legacy">Legacy</a>',
    '<h2 id="café">Café</h2>',
    '<p id="a%20b">an id written with a percent sign</p>',
    '<a name=":_&#37;&#37;&lt;">a name with literal percent signs (Vim\'s help)</a>',
    '<p id="50% off">an id with a percent sign and a space</p>',
    '<a id="both" name="both">id and name on one element: not a duplicate</a>',
    '<p id="dup">first</p>',
    '<p id="dup">second</p>',
    '<span id="legacy">an id repeating an a[name]</span>',
    '<p id="dup">third</p>',
    // Template content is not in the document: no anchor, no duplicate; the template's id is one.
    '<template id="tpl"><p id="inside">inside</p><p id="intro">a copy</p></template>',
  ].join('\n'),
);

/** Too deep to crawl (maxDepth 2): read for its anchors only; its duplicates are not ours to report. */
const tooDeepPage = htmlPage(
  [
    '<section id="sec">section</section>',
    '<p id="twice">one</p><p id="twice">two</p>',
    '<a href="/deep/level4.html">never followed</a>',
  ].join('\n'),
);

function homePage(otherOrigin: string): string {
  return htmlPage(
    [
      '<p id="local">local</p>',
      '<a href="#local">on this page</a>',
      '<a href="#gone">missing on this page</a>',
      '<a href="/target.html#intro">an id</a>',
      '<a href="/target.html#legacy">an a[name]</a>',
      '<a href="/target.html#Intro">case differs</a>',
      '<a href="/target.html#caf%C3%A9">percent-encoded</a>',
      '<a href="/target.html#a%20b">matches as written</a>',
      '<a href="/target.html#:_%%<">literal percent signs</a>',
      '<a href="/target.html#50%%20off">a percent sign, then an encoded space</a>',
      '<a href="/target.html#nowhere">missing</a>',
      '<a href="/target.html#tpl">a template element</a>',
      '<a href="/target.html#inside">inside a template</a>',
      '<a href="/target.html#">empty</a>',
      '<a href="/target.html#top">top</a>',
      '<a href="/target.html#TOP">TOP</a>',
      '<a href="/target.html#:~:text=Intro">text fragment</a>',
      '<a href="/old.html#intro">through a redirect</a>',
      '<a href="/missing.html#intro">a broken target</a>',
      '<a href="/files/report.pdf#page=2">not a page</a>',
      '<img src="/logo.png#icon" alt="">',
      '<iframe src="/frame.html#part"></iframe>',
      '<a href="/deep/level2.html">deeper</a>',
      `<a href="${otherOrigin}/page.html#ext">external, found</a>`,
      `<a href="${otherOrigin}/page.html#nope">external, missing</a>`,
      `<a href="${otherOrigin}/doc.pdf#page=1">external, not a page</a>`,
      `<iframe src="${otherOrigin}/embed.html#player"></iframe>`,
    ].join('\n'),
  );
}

beforeAll(async () => {
  other = await startTestSite(
    {
      '/page.html': htmlPage('<h2 id="ext">External</h2>\n<a href="/ext-child.html">child</a>'),
      '/doc.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
      '/embed.html': htmlPage('<div id="player">player</div>'),
      '/ext-child.html': 'never followed',
    },
    { host: 'other.test' },
  );
  site = await startTestSite(
    {
      '/': homePage(other.origin),
      '/target.html': targetPage,
      '/old.html': redirect('/target.html'),
      '/files/report.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
      '/frame.html': htmlPage('<div id="part">part</div>'),
      '/deep/level2.html': htmlPage(
        '<a href="/deep/level3.html#sec">found</a>\n<a href="/deep/level3.html#absent">missing</a>',
      ),
      '/deep/level3.html': tooDeepPage,
      '/deep/level4.html': 'never requested',
      '/docs/index.html': htmlPage(
        '<a href="/blog/post.html#comments">outside the folder</a>\n<a href="/blog/post.html#nope">missing</a>',
      ),
      '/blog/post.html': htmlPage(
        '<div id="comments">comments</div>\n<a href="/blog/next.html">next</a>',
      ),
      '/blog/next.html': 'never requested',
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await other.close();
});

type AnchorRow = [source: string, target: string, kind: LinkEvent['kind'], anchor?: AnchorCheck];

/** Every link as source, target, kind and anchor (absent when the link carries none). */
function anchorRows(links: readonly LinkEvent[]): AnchorRow[] {
  return links
    .map((link): AnchorRow =>
      link.anchor
        ? [link.source, link.target, link.kind, link.anchor]
        : [link.source, link.target, link.kind],
    )
    .sort(byFields);
}

const byFields = (a: AnchorRow, b: AnchorRow) =>
  JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;

const found = (fragment: string): AnchorCheck => ({ fragment, state: 'found' });
const missing = (fragment: string): AnchorCheck => ({ fragment, state: 'missing' });
const unverifiable = (fragment: string): AnchorCheck => ({ fragment, state: 'unverifiable' });

function expectedRows(): AnchorRow[] {
  const home = site.url('/');
  const level2 = site.url('/deep/level2.html');
  const row = (target: string, kind: LinkEvent['kind'], anchor?: AnchorCheck): AnchorRow =>
    anchor ? [home, target, kind, anchor] : [home, target, kind];
  const rows: AnchorRow[] = [
    row(site.url('/#local'), 'page', found('#local')),
    row(site.url('/#gone'), 'page', missing('#gone')),
    row(site.url('/target.html#intro'), 'page', found('#intro')),
    row(site.url('/target.html#legacy'), 'page', found('#legacy')),
    row(site.url('/target.html#Intro'), 'page', missing('#Intro')),
    row(site.url('/target.html#caf%C3%A9'), 'page', found('#caf%C3%A9')),
    row(site.url('/target.html#a%20b'), 'page', found('#a%20b')),
    // As the URL parser writes them (it encodes `<`); matched after lenient percent-decoding.
    row(site.url('/target.html#:_%%%3C'), 'page', found('#:_%%%3C')),
    row(site.url('/target.html#50%%20off'), 'page', found('#50%%20off')),
    row(site.url('/target.html#nowhere'), 'page', missing('#nowhere')),
    row(site.url('/target.html#tpl'), 'page', found('#tpl')),
    row(site.url('/target.html#inside'), 'page', missing('#inside')),
    // An empty fragment is no fragment: reported without its '#', and not checked.
    row(site.url('/target.html'), 'page'),
    row(site.url('/target.html#top'), 'page'),
    row(site.url('/target.html#TOP'), 'page'),
    row(site.url('/target.html#:~:text=Intro'), 'page'),
    row(site.url('/old.html#intro'), 'page', found('#intro')),
    row(site.url('/missing.html#intro'), 'page'),
    row(site.url('/files/report.pdf#page=2'), 'page', unverifiable('#page=2')),
    row(site.url('/logo.png#icon'), 'image', unverifiable('#icon')),
    row(site.url('/frame.html#part'), 'iframe', found('#part')),
    row(site.url('/deep/level2.html'), 'page'),
    row(other.url('/page.html#ext'), 'page', found('#ext')),
    row(other.url('/page.html#nope'), 'page', missing('#nope')),
    row(other.url('/doc.pdf#page=1'), 'page', unverifiable('#page=1')),
    row(other.url('/embed.html#player'), 'iframe', found('#player')),
    [level2, site.url('/deep/level3.html#sec'), 'page', found('#sec')],
    [level2, site.url('/deep/level3.html#absent'), 'page', missing('#absent')],
  ];
  return rows.sort(byFields);
}

/** The methods each path of `site` was asked with since request number `since`. */
function methodsSince(on: TestSite, since: number, path: string): string[] {
  return on.requests
    .slice(since)
    .filter((request) => request.path === path)
    .map((request) => request.method);
}

const settings = (checkAnchors: boolean) => ({
  url: site.url('/'),
  scanDepth: 3 as const,
  maxDepth: 2,
  checkAnchors,
});

describe('anchors', () => {
  it('finds, misses or cannot verify every non-trivial fragment of an OK link', async () => {
    const { links, pages, done } = await collectScan(settings(true), { lookup });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(anchorRows(links)).toEqual(expectedRows());
    expect(pages.map((page) => page.finalUrl).sort()).toEqual(
      ['/', '/deep/level2.html', '/frame.html', '/target.html'].map((path) => site.url(path)),
    );
    expect(done.summary.brokenAnchors).toBe(6); // #gone #Intro #nowhere #inside #nope #absent
  });

  it('reads pages it does not crawl for their anchors only: one GET, links not followed', async () => {
    const [siteBefore, otherBefore] = [site.requests.length, other.requests.length];
    await collectScan(settings(true), { lookup });
    expect(methodsSince(site, siteBefore, '/deep/level3.html')).toEqual(['GET']);
    expect(methodsSince(site, siteBefore, '/deep/level4.html')).toEqual([]);
    expect(methodsSince(other, otherBefore, '/page.html')).toEqual(['GET']);
    expect(methodsSince(other, otherBefore, '/doc.pdf')).toEqual(['GET']);
    expect(methodsSince(other, otherBefore, '/embed.html')).toEqual(['GET']);
    expect(methodsSince(other, otherBefore, '/ext-child.html')).toEqual([]);
  });

  it('reports each repeat of an id or a[name] on a crawled page, with both positions', async () => {
    const { events, done } = await collectScan(settings(true), { lookup });
    const at = (needle: string) => positionOf(targetPage, needle);
    const page = site.url('/target.html');
    expect(eventsOfType(events, 'duplicate-anchor')).toEqual([
      {
        type: 'duplicate-anchor',
        page,
        name: 'dup',
        first: at('<p id="dup">first'),
        duplicate: at('<p id="dup">second'),
      },
      {
        type: 'duplicate-anchor',
        page,
        name: 'legacy',
        first: at('<a name="legacy">'),
        duplicate: at('<span id="legacy">'),
      },
      {
        type: 'duplicate-anchor',
        page,
        name: 'dup',
        first: at('<p id="dup">first'),
        duplicate: at('<p id="dup">third'),
      },
    ]);
    expect(done.summary.duplicateAnchors).toBe(3);
  });

  it('reads an internal page outside the scanned folder for its anchors, without crawling it', async () => {
    const before = site.requests.length;
    const { links, pages } = await collectScan(
      { url: site.url('/docs/index.html'), scanDepth: 2, checkAnchors: true },
      { lookup },
    );
    expect(pages.map((page) => page.finalUrl)).toEqual([site.url('/docs/index.html')]);
    const docs = site.url('/docs/index.html');
    const expected: AnchorRow[] = [
      [docs, site.url('/blog/post.html#comments'), 'page', found('#comments')],
      [docs, site.url('/blog/post.html#nope'), 'page', missing('#nope')],
    ];
    expect(anchorRows(links)).toEqual(expected.sort(byFields));
    expect(methodsSince(site, before, '/blog/post.html')).toEqual(['GET']);
    expect(methodsSince(site, before, '/blog/next.html')).toEqual([]);
  });

  it('checks no fragment and reads no page for its anchors when checkAnchors is off', async () => {
    const [siteBefore, otherBefore] = [site.requests.length, other.requests.length];
    const { links, done } = await collectScan(settings(false), { lookup });
    expect(links.filter((link) => 'anchor' in link)).toEqual([]);
    expect(anchorRows(links)).toEqual(
      expectedRows().map(([source, target, kind]): AnchorRow => [source, target, kind]),
    );
    expect(methodsSince(site, siteBefore, '/deep/level3.html')).toEqual(['HEAD']);
    expect(methodsSince(other, otherBefore, '/page.html')).toEqual(['HEAD']);
    expect(methodsSince(other, otherBefore, '/doc.pdf')).toEqual(['HEAD']);
    expect(methodsSince(other, otherBefore, '/embed.html')).toEqual(['HEAD']);
    expect(done.summary.brokenAnchors).toBe(0);
  });

  // Duplicate anchors belong to the anchor check (issue 4: "Anchors (when checkAnchors is on): …
  // Duplicate anchors: the same id (or name) twice on one page").
  it('reports no duplicate anchors when checkAnchors is off', async () => {
    const { events, done } = await collectScan(settings(false), { lookup });
    expect(eventsOfType(events, 'duplicate-anchor')).toEqual([]);
    expect(done.summary.duplicateAnchors).toBe(0);
  });
});
