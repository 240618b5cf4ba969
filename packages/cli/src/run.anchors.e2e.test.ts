import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// A site on 127.0.0.1 with what the issue-4 checks look for: a link to a missing #fragment, an id
// used twice, a page over 2 MiB (a 2.3 MB image), a noindex page, a page the sitemap leaves out,
// and a sitemap listing an orphan page and a 404. Each tag sits on a line of its own.
const pages: Record<string, string> = {
  '/': [
    '<!doctype html>',
    '<html>',
    '<head><title>Home</title></head>',
    '<body>',
    '<a href="/about#team">Our team</a>',
    '<a href="/about#history">Our history</a>',
    '<a href="/gallery">Gallery</a>',
    '<a href="/noindex">Drafts</a>',
    '<a href="/contact">Contact</a>',
    '</body>',
    '</html>',
  ].join('\n'),
  '/about': [
    '<!doctype html>',
    '<html>',
    '<head><title>About</title></head>',
    '<body>',
    '<h2 id="history">History</h2>',
    '<p id="history">Founded long ago.</p>',
    '<a href="/">Home</a>',
    '</body>',
    '</html>',
  ].join('\n'),
  '/gallery': [
    '<!doctype html>',
    '<html>',
    '<head><title>Gallery</title></head>',
    '<body>',
    '<img src="/big.jpg" alt="A large photo">',
    '</body>',
    '</html>',
  ].join('\n'),
  '/noindex': [
    '<!doctype html>',
    '<html>',
    '<head><title>Drafts</title><meta name="robots" content="noindex"></head>',
    '<body>Nothing yet.</body>',
    '</html>',
  ].join('\n'),
  '/contact':
    '<!doctype html>\n<html><head><title>Contact</title></head><body>Write.</body></html>',
  '/orphan': '<!doctype html>\n<html><head><title>Orphan</title></head><body>Alone.</body></html>',
};
const imageBytes = 2_300_000;
const image = Buffer.alloc(imageBytes, 0xab);
const inSitemap = ['/', '/about', '/gallery', '/noindex', '/orphan', '/gone'];

function serve(base: () => string) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const path = request.url ?? '/';
    const page = pages[path];
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, { 'content-type': type, 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (page !== undefined) send(200, 'text/html; charset=utf-8', Buffer.from(page));
    else if (path === '/big.jpg') send(200, 'image/jpeg', image);
    else if (path === '/sitemap.xml') {
      const urls = inSitemap.map((entry) => `  <url><loc>${base()}${entry}</loc></url>`);
      const xml = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...urls,
        '</urlset>',
      ].join('\n');
      send(200, 'application/xml', Buffer.from(xml));
    } else send(404, 'text/html', Buffer.from('<!doctype html><title>Not found</title>'));
  };
}

describe('linkaudit scan --anchors --page-rank --page-inclusion against a real site', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer(serve(() => base));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const argv = () => [
    'scan',
    `${base}/`,
    '--anchors',
    '--page-rank',
    '--page-inclusion',
    '--retries',
    '0',
    '--quiet',
  ];

  it('reports the broken fragment, the duplicate id, the heavy page, ranks and the sitemap', async () => {
    const io = fakeIo();
    const code = await main([...argv(), '-f', 'json'], io);
    expect(io.stderr.text).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(io.stdout.text);
    const column = expect.any(Number) as number;
    const at = (path: string) => `${base}${path}`;

    expect(report.status).toBe('Complete');
    // The sitemap's /gone: no page links to it, the sitemap does, at its <loc> (issue 35).
    expect(report.broken).toEqual([
      expect.objectContaining({
        url: at('/gone'),
        reason: 'Not Found',
        referenceCount: 1,
        sources: [
          { url: at('/sitemap.xml'), element: 'sitemap', attribute: 'loc', line: 8, column: 8 },
        ],
      }),
    ]);
    expect(report.summary).toMatchObject({
      pages: 6,
      brokenLinks: 1,
      uniqueBrokenLinks: 1,
      brokenAnchors: 1,
      duplicateAnchors: 1,
      fattestPages: 1,
      certificateProblems: 0,
    });
    expect(report.anchors).toEqual({
      broken: [
        {
          url: at('/about#team'),
          page: at('/about'),
          fragment: '#team',
          referenceCount: 1,
          sources: [{ url: at('/'), element: 'a', attribute: 'href', line: 5, column }],
        },
      ],
      duplicates: [
        {
          page: at('/about'),
          name: 'history',
          first: { line: 5, column },
          duplicate: { line: 6, column },
        },
      ],
      unverifiable: 0,
    });
    expect(report.certificates).toEqual([]);

    const html = (path: string) => Buffer.byteLength(pages[path] ?? '');
    const galleryBytes = html('/gallery') + imageBytes;
    expect(report.pageSizes.fattest).toEqual([
      {
        page: at('/gallery'),
        totalBytes: galleryBytes,
        htmlBytes: html('/gallery'),
        unknownSizes: 0,
        contents: [
          { contentType: 'image/jpeg', totalSize: imageBytes, count: 1 },
          { contentType: 'text/html', totalSize: html('/gallery'), count: 1 },
        ],
      },
    ]);
    expect((report.pageSizes.buckets as { pages: number }[]).map((bucket) => bucket.pages)).toEqual(
      [5, 0, 1, 0, 0, 0],
    );
    expect(report.pageSizes.heaviest).toHaveLength(6);
    expect(report.pageSizes.heaviest[0].page).toBe(at('/gallery'));
    const htmlPaths = ['/', '/about', '/gallery', '/noindex', '/contact', '/orphan'];
    expect(report.fileTypes).toEqual([
      { contentType: 'image/jpeg', count: 1, totalSize: imageBytes },
      {
        contentType: 'text/html',
        count: 6,
        totalSize: htmlPaths.reduce((sum, path) => sum + html(path), 0),
      },
    ]);

    const ranks = report.pageRank as { page: string; rank: number; score: number }[];
    expect(ranks.map((entry) => entry.page).sort()).toEqual(htmlPaths.map(at).sort());
    expect(ranks[0]).toMatchObject({ page: at('/'), score: 10 });
    expect(ranks.reduce((sum, entry) => sum + entry.rank, 0)).toBeCloseTo(1, 5);
    for (let index = 1; index < ranks.length; index++) {
      expect(ranks[index]!.rank).toBeLessThanOrEqual(ranks[index - 1]!.rank);
    }

    expect(report.pageInclusion.summary).toEqual({
      sitemaps: [at('/sitemap.xml')],
      urls: 6,
      orphans: 1,
      broken: 1,
      redirected: 0,
      notIndexable: 1,
      missingFromSitemap: 1,
    });
    const entries = report.pageInclusion.pages as {
      page: string;
      statusCode: number | null;
      indexable: boolean;
      notIndexableBecause: string[];
      inSitemap: boolean;
      orphan: boolean;
    }[];
    const facts = entries.map((entry) => [
      entry.page.slice(base.length),
      entry.statusCode,
      entry.indexable,
      entry.notIndexableBecause,
      entry.inSitemap,
      entry.orphan,
    ]);
    expect(facts).toEqual([
      ['/', 200, true, [], true, false],
      ['/about', 200, true, [], true, false],
      ['/contact', 200, true, [], false, false],
      ['/gallery', 200, true, [], true, false],
      ['/gone', 404, false, ['status'], true, false],
      ['/noindex', 200, false, ['noindex-meta'], true, false],
      ['/orphan', 200, true, [], true, true],
    ]);
  });

  it('shows the same findings in the text report', async () => {
    const io = fakeIo();
    expect(await main(argv(), io)).toBe(1);
    const text = io.stdout.text;
    expect(text).toContain('  Anchors     1 broken link to 1 anchor, 1 duplicate\n');
    expect(text).toContain(`Broken anchors (1)\n  ${base}/about#team\n`);
    expect(text).toContain(`Duplicate anchors (1)\n  ${base}/about:6:`);
    expect(text).toContain(`Heaviest pages (1 page over 2 MiB)\n  2.3 MB  ${base}/gallery\n`);
    expect(text).toContain(`Orphan pages (1)\n    ${base}/orphan\n`);
    expect(text).toContain(`Broken sitemap entries (1)\n    ${base}/gone: 404\n`);
  });

  it('exits 1 for the broken fragment alone, and 0 without --anchors', async () => {
    const withAnchors = fakeIo();
    const flags = ['--retries', '0', '--quiet', '-f', 'json'];
    expect(await main(['scan', `${base}/`, '--anchors', ...flags], withAnchors)).toBe(1);
    const report = JSON.parse(withAnchors.stdout.text);
    expect(report.summary).toMatchObject({ uniqueBrokenLinks: 0, brokenAnchors: 1 });
    expect(report.pageRank).toBeUndefined();
    expect(report.pageInclusion).toBeUndefined();

    const withoutAnchors = fakeIo();
    expect(await main(['scan', `${base}/`, ...flags], withoutAnchors)).toBe(0);
    const plain = JSON.parse(withoutAnchors.stdout.text);
    expect(plain.anchors.broken).toEqual([]);
    // Anchors, duplicates included, are read only with --anchors.
    expect(plain.anchors.duplicates).toEqual([]);
    expect(plain.pageSizes.fattest).toHaveLength(1);
  });
});
