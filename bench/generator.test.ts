// The benchmark is only as good as its site's truth: these tests crawl the written files
// independently of the generator's own bookkeeping and check that truth.json matches them.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite, type Truth } from './generator.mjs';
import { startSiteServer } from './server.mjs';

const ORIGIN = 'http://127.0.0.1:8080';
const LINK = /\b(href|src)="([^"]*)"/g;
let tmp: string;

function site(name: string, options: Parameters<typeof generateSite>[1]) {
  const dir = path.join(tmp, name);
  return { dir, truth: generateSite(dir, options) };
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  for (const file of files(dir)) hash.update(file).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex');
}

function fileFor(dir: string, urlPath: string): string {
  return path.join(dir, urlPath === '/' ? 'index.html' : urlPath.slice(1));
}

// Every href/src of one page: attribute, raw value and the resolved path without fragment (the
// whole URL when it names another host).
function linksOf(dir: string, urlPath: string) {
  const html = readFileSync(fileFor(dir, urlPath), 'utf8');
  return [...html.matchAll(LINK)].map(([, attribute, value]) => {
    const url = new URL(value!, ORIGIN + urlPath);
    url.hash = '';
    return { attribute, value: value!, path: url.origin === ORIGIN ? url.pathname : url.href };
  });
}

// A breadth-first crawl of the files on disk, following the truth's redirect routes, as a
// link checker would; returns every URL reached.
function crawl(dir: string, truth: Truth): Set<string> {
  const onDisk = new Set(files(dir).map((file) => '/' + file.split(path.sep).join('/')));
  const seen = new Set<string>(['/']);
  const crawled = new Set<string>(['/']);
  const queue = ['/'];
  const visit = (urlPath: string) => {
    let target = urlPath;
    for (let hops = 0; truth.routes[target]?.location && hops < 5; hops++) {
      target = truth.routes[target]!.location!;
    }
    if (target.endsWith('.html') && onDisk.has(target) && !crawled.has(target)) {
      crawled.add(target);
      queue.push(target);
    }
  };
  while (queue.length > 0) {
    for (const link of linksOf(dir, queue.shift()!)) {
      seen.add(link.path);
      visit(link.path);
    }
  }
  return seen;
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-'));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('synthetic site generator', () => {
  it('writes the same bytes for the same seed and different ones for another seed', () => {
    const options = { pages: 300, bigFiles: 1, bigFileBytes: 50_000 };
    const a = site('a', { ...options, seed: 7 });
    const b = site('b', { ...options, seed: 7 });
    const c = site('c', { ...options, seed: 8 });
    expect(fingerprint(a.dir)).toBe(fingerprint(b.dir));
    expect(fingerprint(a.dir)).not.toBe(fingerprint(c.dir));
  });

  describe('on a 500-page site', () => {
    let dir: string;
    let truth: Truth;
    beforeAll(() => {
      ({ dir, truth } = site('main', { pages: 500, seed: 3 }));
    });

    it('lists exactly the URLs a crawl from / reaches, every page among them', () => {
      const reached = crawl(dir, truth);
      expect(new Set(truth.urls)).toEqual(reached);
      const pages = files(dir).filter((file) => /(^|\/)p\d+\.html$/.test(file));
      expect(pages).toHaveLength(499);
      for (const page of pages) expect(reached.has('/' + page)).toBe(true);
    });

    it('marks as broken exactly the reached URLs with no file behind them', () => {
      const onDisk = new Set(files(dir).map((file) => '/' + file));
      // (0: no HTTP answer at all, from another host or from a dropped connection)
      const answer = (urlPath: string): number => {
        if (!urlPath.startsWith('/')) return 0;
        const route = truth.routes[urlPath];
        if (route?.location) return answer(route.location);
        if (route?.drop) return 0;
        if (route && !route.delayMs && !route.trickleMs) return route.status;
        return urlPath === '/' || onDisk.has(urlPath) ? 200 : 404;
      };
      const expected: Record<string, number> = {};
      for (const url of truth.urls) if (answer(url) !== 200) expected[url] = answer(url);
      const recorded = Object.fromEntries(
        Object.entries(truth.broken).map(([url, entry]) => [url, entry.status]),
      );
      expect(recorded).toEqual(expected);
      expect(Object.values(expected)).toContain(410);
      expect(Object.values(truth.broken).some((entry) => entry.redirected)).toBe(true);
    });

    it('points the requested share of <a href> links straight at missing pages', () => {
      const anchors = collectAnchors(dir, truth);
      const direct = anchors.filter((p) => truth.broken[p] && !truth.broken[p].redirected);
      expect(anchors.length).toBeGreaterThan(500 * 25);
      expect(direct.length / anchors.length).toBeGreaterThan(0.015);
      expect(direct.length / anchors.length).toBeLessThan(0.025);
      const redirects = anchors.filter((p) => truth.routes[p]?.location);
      expect(redirects.length / anchors.length).toBeGreaterThan(0.015);
      expect(redirects.length / anchors.length).toBeLessThan(0.025);
    });

    it('has broken fragments and no URL of any other host but hosts that never resolve', () => {
      expect(truth.brokenFragments.length).toBeGreaterThan(0);
      const hosts = new Set<string>();
      for (const file of files(dir)) {
        if (!/\.(html|css|js|svg|json)$/.test(file)) continue;
        const text = readFileSync(path.join(dir, file), 'utf8');
        for (const [, host] of text.matchAll(/[a-z][a-z0-9+.-]*:\/\/([^"'\s/]*)/gi)) {
          hosts.add(host!);
        }
        expect(text).not.toMatch(/(href|src)="\/\//);
      }
      expect([...hosts].sort()).toEqual([
        'dead-0.bench.invalid',
        'dead-1.bench.invalid',
        'dead-2.bench.invalid',
      ]);
      for (const route of Object.values(truth.routes)) {
        if (route.location) expect(route.location).toMatch(/^\/[^/]/);
      }
    });
  });

  describe('the tail: slow, trickling and dropping URLs, hosts that do not resolve', () => {
    let dir: string;
    let truth: Truth;
    beforeAll(() => {
      ({ dir, truth } = site('tail', { pages: 200, seed: 4, slowMs: 200, trickleMs: 200 }));
    });

    it('links each tail URL from tailLinks pages and records what it is', () => {
      const linkedFrom = new Map<string, Set<string>>();
      for (const url of truth.urls) {
        if (url !== '/' && !/\/p\d+\.html$/.test(url)) continue;
        for (const link of linksOf(dir, url)) {
          if (!link.path.includes('/tail/') && !link.path.includes('.invalid')) continue;
          if (!linkedFrom.has(link.path)) linkedFrom.set(link.path, new Set());
          linkedFrom.get(link.path)!.add(url);
        }
      }
      // 3 slow, 3 trickling, 3 dropping, 3 dead hosts × 4 URLs; each on 3 pages.
      expect(linkedFrom.size).toBe(21);
      for (const pages of linkedFrom.values()) expect(pages.size).toBe(3);
      for (const url of linkedFrom.keys()) expect(truth.urls).toContain(url);
      const kinds = (pattern: RegExp) => [...linkedFrom.keys()].filter((url) => pattern.test(url));
      for (const url of kinds(/\/tail\/(slow|trickle)-/)) {
        expect(truth.broken[url], url).toBeUndefined();
        expect(existsSync(fileFor(dir, url)), url).toBe(true);
      }
      for (const url of kinds(/\/tail\/drop-/)) {
        expect(truth.broken[url]).toEqual({ status: 0, reason: 'connection dropped' });
      }
      const dead = kinds(/\.invalid\//);
      expect(dead).toHaveLength(12);
      for (const url of dead) {
        expect(new URL(url).hostname).toMatch(/^dead-\d\.bench\.invalid$/);
        expect(truth.broken[url]).toEqual({ status: 0, reason: 'host does not resolve' });
      }
    });

    it('is served as it says: slow and trickling answers whole, dropped ones without an answer', async () => {
      const served = await startSiteServer(dir);
      const origin = `http://127.0.0.1:${served.port}`;
      try {
        for (const url of ['/tail/slow-0.html', '/tail/slow-1.png', '/tail/trickle-0.html']) {
          const answer = await fetch(origin + url);
          expect(answer.status, url).toBe(200);
          const body = Buffer.from(await answer.arrayBuffer());
          expect(body.equals(readFileSync(fileFor(dir, url))), url).toBe(true);
        }
        const pieces = await bodyPieces(`${origin}/tail/trickle-1.html`);
        expect(pieces).toBeGreaterThanOrEqual(5);
        for (const url of ['/tail/drop-0.html', '/tail/drop-1.png']) {
          for (const method of ['GET', 'HEAD']) {
            await expect(fetch(origin + url, { method }), `${method} ${url}`).rejects.toThrow();
          }
        }
      } finally {
        served.server.closeAllConnections();
        await new Promise((resolve) => served.server.close(resolve));
      }
    });
  });

  it('honours another broken fraction', () => {
    const { dir, truth } = site('fraction', { pages: 500, seed: 5, brokenFraction: 0.06 });
    const anchors = collectAnchors(dir, truth);
    const direct = anchors.filter((p) => truth.broken[p] && !truth.broken[p].redirected);
    expect(direct.length / anchors.length).toBeGreaterThan(0.05);
    expect(direct.length / anchors.length).toBeLessThan(0.07);
  });
});

// How many separate chunks a body arrived in.
async function bodyPieces(url: string): Promise<number> {
  const answer = await fetch(url);
  let pieces = 0;
  for await (const chunk of answer.body!) if (chunk.byteLength > 0) pieces++;
  return pieces;
}

// The resolved paths of every <a href> of every page of the site.
function collectAnchors(dir: string, truth: Truth): string[] {
  const anchors: string[] = [];
  for (const url of truth.urls) {
    if (url !== '/' && !url.endsWith('.html')) continue;
    if (truth.broken[url] || truth.routes[url]) continue;
    const html = readFileSync(fileFor(dir, url), 'utf8');
    for (const [, value] of html.matchAll(/<a href="([^"]*)"/g)) {
      anchors.push(new URL(value!, ORIGIN + url).pathname);
    }
  }
  return anchors;
}
