// Rendering pages in a browser (issue 35): a React + react-router app and a Vue + vue-router app
// (built by Vite, output checked in: test-sites/render/build.mjs) and Doxygen's tree view. With
// rendering, every link, image, request and id that script makes is found, links only the
// rendered page has say so, the page's failed requests are its broken resources, console errors
// are a User Experience finding, and nothing that works is called broken. Without it the report
// says the site looks built by script. The browser's requests go through the scan's address
// policy like the crawler's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureReason } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressPolicy } from '../fetch/address-policy.js';
import {
  brokenSummary,
  collectScan,
  eventsOfType,
  sizedFile,
  startTestSite,
  type CollectedScan,
  type TestSite,
} from '../test-support/index.js';

const sites = path.resolve(fileURLToPath(import.meta.url), '../../../test-sites/render');
const consoleErrorRule = 5016;

/** A built single-page app: its client routes answer its index.html, other paths 404. */
async function startApp(app: string, routes: string[], extra: Record<string, unknown> = {}) {
  const dist = path.join(sites, app, 'dist');
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  return startTestSite(
    { ...Object.fromEntries(routes.map((route) => [route, index])), ...extra } as never,
    { folder: dist },
  );
}

function renderedScan(site: TestSite, renderPages: boolean, options = {}): Promise<CollectedScan> {
  return collectScan(
    {
      url: site.url('/'),
      scanDepth: 3,
      checkAnchors: true,
      renderPages,
      selectedRules: renderPages ? [consoleErrorRule] : [],
    },
    { render: { pages: 2 }, ...options },
  );
}

function renderedTargets(scan: CollectedScan): string[] {
  const targets = scan.links.filter((link) => link.rendered).map((link) => link.target);
  return [...new Set(targets)].sort();
}

describe('a React + react-router app', () => {
  let site: TestSite;
  let rendered: CollectedScan;
  let plain: CollectedScan;

  beforeAll(async () => {
    site = await startApp('react-app', ['/', '/about', '/docs'], {
      '/img/logo.png': sizedFile(500, 'image/png'),
      '/api/items.json': { headers: { 'content-type': 'application/json' }, body: '["usage"]' },
    });
    [rendered, plain] = await Promise.all([renderedScan(site, true), renderedScan(site, false)]);
  }, 60_000);
  afterAll(() => site.close());

  it('finds every link, image and request the script makes, marked as rendered', () => {
    expect(rendered.done.summary.rendering).toEqual({
      requested: true,
      renderedPages: 3,
      failedPages: 0,
    });
    expect(rendered.pages.map((page) => page.url).sort()).toEqual(
      ['/', '/about', '/docs'].map((route) => site.url(route)),
    );
    expect(renderedTargets(rendered)).toEqual(
      [
        '/',
        '/about',
        '/docs#install',
        '/docs#usage',
        '/missing-page',
        '/img/logo.png',
        '/img/missing.png',
        '/api/items.json',
        '/api/broken',
      ]
        .map((route) => site.url(route))
        .sort(),
    );
    const request = rendered.links.find((link) => link.url === site.url('/api/broken'));
    expect(request).toMatchObject({ element: 'fetch', attribute: 'request', line: 0, column: 0 });
  });

  it('calls broken exactly what is broken, and finds the ids script adds', () => {
    expect(brokenSummary(rendered.links).map(({ url, reason }) => ({ url, reason }))).toEqual([
      { url: site.url('/api/broken'), reason: FailureReason.NotFound },
      { url: site.url('/img/missing.png'), reason: FailureReason.NotFound },
      { url: site.url('/missing-page'), reason: FailureReason.NotFound },
    ]);
    const anchors = rendered.links.filter((link) => link.anchor);
    expect(anchors.length).toBeGreaterThan(0);
    expect(anchors.every((link) => link.anchor?.state === 'found')).toBe(true);
  });

  it('reports the console error as a User Experience finding of its page', () => {
    const findings = eventsOfType(rendered.events, 'rule');
    expect(findings.map(({ ruleId, url, categoryID }) => ({ ruleId, url, categoryID }))).toEqual([
      { ruleId: consoleErrorRule, url: site.url('/about'), categoryID: 5 },
    ]);
    expect(findings[0]?.message).toBe('React app: the settings could not be loaded');
  });

  it('without rendering, sees no link and says the site looks built by script', () => {
    expect(plain.pages).toHaveLength(1);
    expect(plain.links.some((link) => link.rendered)).toBe(false);
    expect(plain.done.summary.rendering).toEqual({
      requested: false,
      scriptBuiltPages: 1,
      scriptBuiltExample: site.url('/'),
    });
  });
});

describe('a Vue + vue-router app', () => {
  let site: TestSite;
  let rendered: CollectedScan;

  beforeAll(async () => {
    site = await startApp('vue-app', ['/', '/guide', '/faq'], {
      '/img/vue-logo.png': sizedFile(500, 'image/png'),
    });
    rendered = await renderedScan(site, true);
  }, 60_000);
  afterAll(() => site.close());

  it('finds the script-made links, images, requests and ids; broken only what is', () => {
    expect(rendered.pages.map((page) => page.url).sort()).toEqual(
      ['/', '/faq', '/guide'].map((route) => site.url(route)),
    );
    expect(renderedTargets(rendered)).toEqual(
      [
        '/',
        '/faq',
        '/guide#setup',
        '/nowhere',
        '/img/vue-logo.png',
        '/img/vue-missing.png',
        '/api/vue-broken',
      ]
        .map((route) => site.url(route))
        .sort(),
    );
    expect(brokenSummary(rendered.links).map(({ url }) => url)).toEqual(
      ['/api/vue-broken', '/img/vue-missing.png', '/nowhere'].map((route) => site.url(route)),
    );
    const setup = rendered.links.find((link) => link.target === site.url('/guide#setup'));
    expect(setup?.anchor?.state).toBe('found');
  });
});

describe("Doxygen's tree view", () => {
  let site: TestSite;
  let rendered: CollectedScan;
  let plain: CollectedScan;

  beforeAll(async () => {
    site = await startTestSite({}, { folder: path.join(sites, 'doxygen-treeview', 'html') });
    const start = (renderPages: boolean) =>
      collectScan(
        {
          url: site.url('/index.html'),
          scanDepth: 3,
          checkAnchors: true,
          renderPages,
          // (Its one external link, to doxygen.org: no network here.)
          excludeLinks: [{ link: 'https://www.doxygen.org' }],
        },
        { render: { pages: 2 } },
      );
    [rendered, plain] = await Promise.all([start(true), start(false)]);
  }, 60_000);
  afterAll(() => site.close());

  it('reads the tree the script builds, and nothing that works is broken', () => {
    const treeLinks = rendered.links.filter((link) => link.rendered && link.element === 'a');
    const pages = new Set(treeLinks.map((link) => link.url));
    // The tree names the main page, the usage page, the file and the struct; the HTML does not.
    for (const page of ['usage.html', 'shapes_8h.html', 'structShape.html', 'annotated.html'])
      expect(pages).toContain(site.url(`/${page}`));
    expect(brokenSummary(rendered.links)).toEqual([]);
    expect(rendered.links.filter((link) => link.anchor?.state === 'missing')).toEqual([]);
    expect(rendered.pages.length).toBeGreaterThan(plain.pages.length);
  });

  it('without rendering, says the pages look built by script', () => {
    expect(plain.done.summary.rendering).toMatchObject({
      requested: false,
      scriptBuiltExample: site.url('/index.html'),
    });
    expect(plain.done.summary.rendering?.scriptBuiltPages).toBe(plain.pages.length);
  });
});

describe('the address policy in the browser, and no Chromium', () => {
  let site: TestSite;
  let secret: TestSite;
  let guarded: CollectedScan;
  let noBrowser: CollectedScan;

  beforeAll(async () => {
    secret = await startTestSite({
      '/secret': 'inside',
      '/pixel.png': sizedFile(100, 'image/png'),
    });
    const script = [
      `fetch('${secret.url('/secret')}').catch(() => {});`,
      `const pixel = new Image(); pixel.src = '${secret.url('/pixel.png')}';`,
      `document.body.append(pixel);`,
    ].join('\n');
    site = await startTestSite({
      '/': `<!doctype html><html><head><title>t</title></head><body><script>${script}</script></body></html>`,
    });
    // A hosted scan's policy: this site's port only (the other server stands for a private one).
    const thisSiteOnly: AddressPolicy = (_address, _host, port) => port === site.port;
    const settings = { url: site.url('/'), scanDepth: 3 as const, renderPages: true };
    [guarded, noBrowser] = await Promise.all([
      collectScan(settings, { render: { pages: 1 }, addressPolicy: thisSiteOnly }),
      collectScan(settings, { render: { chromiumPath: '/nonexistent/chromium' } }),
    ]);
  }, 60_000);
  afterAll(() => Promise.all([site.close(), secret.close()]));

  it("refuses the browser's requests to refused addresses, as the crawler's", () => {
    expect(secret.requests).toEqual([]);
    const refused = guarded.links.filter((link) => link.url.startsWith(secret.origin));
    const seen = refused.map((link) => [link.element, link.rendered, link.check.state]);
    // The script's image is in the DOM (an img element), its fetch only a request.
    expect(seen.sort()).toEqual([
      ['fetch', true, 'broken'],
      ['img', true, 'broken'],
    ]);
    for (const link of refused) expect(link.check).toMatchObject({ errorCode: 'EADDRBLOCKED' });
  });

  it('says so when there is no Chromium, and scans the HTML as usual', () => {
    expect(noBrowser.done.status).toBe(1);
    expect(noBrowser.pages).toHaveLength(1);
    expect(noBrowser.done.summary.rendering).toEqual({
      requested: true,
      renderedPages: 0,
      failedPages: 0,
      unavailable: expect.stringContaining('/nonexistent/chromium is not an executable file'),
    });
  });
});
