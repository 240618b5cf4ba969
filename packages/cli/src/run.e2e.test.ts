import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// A three-page site on 127.0.0.1: a home page and an about page that both link to a 404, and an
// image on the home page that answers 500. Each link sits on a line of its own.
const pages: Record<string, string> = {
  '/': [
    '<!doctype html>',
    '<html>',
    '<head><title>Home</title></head>',
    '<body>',
    '<a href="/about">About us</a>',
    '<a href="/missing">Old news</a>',
    '<img src="/error" alt="Logo">',
    '</body>',
    '</html>',
  ].join('\n'),
  '/about': [
    '<!doctype html>',
    '<html>',
    '<head><title>About</title></head>',
    '<body>',
    '<a href="/">Home</a>',
    '<a href="/missing">Old news again</a>',
    '</body>',
    '</html>',
  ].join('\n'),
};

function serve(request: { url?: string }, response: ServerResponse): void {
  const path = request.url ?? '/';
  const page = pages[path];
  if (page !== undefined) {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page);
  } else if (path === '/error') {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('Internal Server Error');
  } else {
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Not found</title>');
  }
}

interface JsonSource {
  url: string;
  element: string;
  attribute: string;
  line: number;
  column: number;
}

describe('linkaudit scan against a real site', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('lists the 404 and the 500 with their sources and exits 1', async () => {
    const io = fakeIo();
    const code = await main(
      ['scan', `${base}/`, '--format', 'json', '--retries', '0', '--quiet'],
      io,
    );
    expect(io.stderr.text).toBe('');
    expect(code).toBe(1);

    const report = JSON.parse(io.stdout.text);
    expect(report).toMatchObject({
      tool: 'linkaudit',
      startUrl: `${base}/`,
      status: 'Complete',
      statusCode: 1,
      summary: {
        brokenLinks: 3,
        uniqueBrokenLinks: 2,
        uniqueUnverifiedLinks: 0,
        reasons: { 'Internal Server Error': 1, 'Not Found': 1 },
      },
      unverified: [],
    });
    const column = expect.any(Number) as number;
    expect(report.broken).toEqual([
      {
        url: `${base}/error`,
        reason: 'Internal Server Error',
        statusCode: 500,
        message: expect.any(String),
        referenceCount: 1,
        redirects: [],
        sources: [{ url: `${base}/`, element: 'img', attribute: 'src', line: 7, column }],
      },
      {
        url: `${base}/missing`,
        reason: 'Not Found',
        statusCode: 404,
        message: expect.any(String),
        referenceCount: 2,
        redirects: [],
        sources: [
          { url: `${base}/`, element: 'a', attribute: 'href', line: 6, column },
          { url: `${base}/about`, element: 'a', attribute: 'href', line: 6, column },
        ],
      },
    ]);
    // Whether a column names the tag or the attribute is the engine's choice; it must fall on the
    // link's own tag.
    for (const item of report.broken as { sources: JsonSource[] }[]) {
      for (const source of item.sources) {
        const html = pages[new URL(source.url).pathname] ?? '';
        const lineText = html.split('\n')[source.line - 1] ?? '';
        expect(source.column).toBeGreaterThanOrEqual(1);
        expect(source.column).toBeLessThanOrEqual(lineText.indexOf('>') + 1);
      }
    }
  });
});
