import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny site for the scan tests: pages, a 404 link, a 500 link, an image, a slow chain, and a
 * page over 2 MB linked from nowhere (`/big`).
 */
export interface TestSite {
  url: (path: string) => string;
  close: () => Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const pages: Record<string, string> = {
  '/': page(
    'Home',
    '<a href="/a">A</a> <a href="/b">B</a> <a href="/missing">gone</a> <a href="/error">error</a> <img src="/logo.png" alt="logo">',
  ),
  '/a': page('A', '<a href="/">home</a> <a href="/b">B</a> <a href="/missing">gone</a>'),
  '/b': page('B', '<p>plain page</p>'),
  '/ok': page('OK', '<a href="/b">B</a> <a href="/a">A</a>'),
};

/** Starts the site on 127.0.0.1 at a free port. `/slow/{n}` answers after 1.5 s and links on. */
export async function startTestSite(): Promise<TestSite> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/logo.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      return;
    }
    if (path === '/big') {
      // A page over 2 MB (a "fattest page"), linked from nowhere: scanned on its own.
      const padding = `<p>${'big page '.repeat(250_000)}</p>`;
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(page('Big', `<a href="/b">B</a>${padding}`));
      return;
    }
    if (path === '/error') {
      response.writeHead(500, { 'content-type': 'text/html' }).end(page('Error', 'broken'));
      return;
    }
    const slow = /^\/slow\/(\d+)$/.exec(path);
    if (slow) {
      const n = Number(slow[1]);
      const links = Array.from({ length: 4 }, (_, i) => `<a href="/slow/${n * 4 + i}">p</a>`);
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow', links.join(' ')));
      }, 1500);
      return;
    }
    const html = pages[path];
    if (html) response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else response.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
