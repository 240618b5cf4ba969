import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// --cache (issue 38): a site on 127.0.0.1 links to another host (a second server that counts
// the requests it gets); a second run asks that host only for what is new or stale.

const externalPaths = ['/a', '/b', '/c', '/d', '/gone', '/busy'];
let links: string[];
let site: Server;
let external: Server;
let siteUrl: string;
let externalUrl: string;
let requests: string[] = [];
let folder: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    const anchors = links.map((link) => `<a href="${externalUrl}${link}">x</a>`).join('\n');
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Home</title>\n${anchors}`);
  });
  external = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === '/page')
      return void response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<h1 id="here">x</h1>');
    const status = request.url === '/gone' ? 404 : request.url === '/busy' ? 503 : 200;
    response.writeHead(status, { 'content-type': 'text/plain' }).end('x');
  });
  siteUrl = await listen(site);
  externalUrl = await listen(external);
  folder = await mkdtemp(path.join(tmpdir(), 'linkaudit-cache-'));
});
afterAll(async () => {
  for (const server of [site, external]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await rm(folder, { recursive: true, force: true });
});

interface JsonReport {
  broken: Array<{ url: string; message: string }>;
  anchors: { broken: Array<{ url: string }> };
  summary: { uniqueBrokenLinks: number };
}

async function run(cache: string) {
  requests = [];
  const io = fakeIo();
  const code = await main(
    ['scan', `${siteUrl}/`, '--cache', cache, '-f', 'json', '--retries', '0', '--quiet'],
    io,
  );
  expect(io.stderr.text).toBe('');
  const asked = [...new Set(requests.map((request) => request.split(' ')[1]))].sort();
  const report = JSON.parse(io.stdout.text) as JsonReport;
  return { code, report, asked };
}

describe('linkaudit scan --cache', () => {
  it('asks the other host only for new, stale and passing-trouble URLs on the second run', async () => {
    const cache = path.join(folder, 'cache.json');
    links = [...externalPaths];
    const first = await run(cache);
    expect(first.asked).toEqual([...externalPaths].sort());
    expect(first.code).toBe(1);

    // Two results grow stale (checked two days ago; the default age is one day), one link is new.
    const contents = JSON.parse(await readFile(cache, 'utf8')) as {
      results: Record<string, { checkedAt: number }>;
    };
    expect(Object.keys(contents.results).sort()).toEqual(
      ['/a', '/b', '/c', '/d', '/gone'].map((link) => `${externalUrl}${link}`),
    );
    for (const link of ['/b', '/gone'])
      contents.results[`${externalUrl}${link}`]!.checkedAt -= 2 * 86_400_000;
    await writeFile(cache, JSON.stringify(contents));
    links = [...externalPaths, '/e'];

    const second = await run(cache);
    // /busy answered 503: passing trouble is never kept, so it is asked again.
    expect(second.asked).toEqual(['/b', '/busy', '/e', '/gone']);
    expect(second.code).toBe(1);

    const third = await run(cache);
    expect(third.asked).toEqual(['/busy']);
    const gone = third.report.broken.find((item) => item.url.endsWith('/gone'));
    expect(gone?.message).toMatch(
      /^404 Not Found \(cached result, checked \d{4}-\d\d-\d\dT[\d:]+Z\)$/,
    );
    expect(third.report.summary.uniqueBrokenLinks).toBe(2);
  });

  it('keeps the anchors of a page on the other host, so its #fragments are checked from the cache', async () => {
    const cache = path.join(folder, 'anchors-cache.json');
    const readme = path.join(folder, 'README.md');
    await writeFile(
      readme,
      `[here](${externalUrl}/page#here) and [nope](${externalUrl}/page#nope)\n`,
    );
    const scanFile = async () => {
      requests = [];
      const io = fakeIo();
      const code = await main(['scan', readme, '--cache', cache, '-f', 'json', '--quiet'], io);
      const report = JSON.parse(io.stdout.text) as JsonReport;
      const fragments = report.anchors.broken.map((item) => item.url);
      return { code, fragments, requests: [...requests] };
    };
    const first = await scanFile();
    expect(first.fragments).toEqual([`${externalUrl}/page#nope`]);
    expect(first.requests).toContain('GET /page');
    expect(await scanFile()).toEqual({ ...first, requests: [] });
  });

  it('refuses a file that is not its cache, before scanning', async () => {
    const other = path.join(folder, 'package.json');
    await writeFile(other, '{"name": "mine"}');
    const io = fakeIo();
    requests = [];
    expect(await main(['scan', `${siteUrl}/`, '--cache', other], io)).toBe(2);
    expect(io.stderr.text).toContain('is not a linkaudit cache file');
    expect(await readFile(other, 'utf8')).toBe('{"name": "mine"}');
    expect(requests).toEqual([]);
  });
});
