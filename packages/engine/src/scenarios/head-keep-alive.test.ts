// HEAD answers keep their connection when the server says keep-alive (undici would close it after
// each HEAD: a new connection per checked link). A server that sends a body with a HEAD answer,
// which it must not, breaks the next answer on that connection: that request is retried on a
// fresh connection, never reported broken.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { collectScan, urlOutcomes } from '../test-support/index.js';

interface RawSite {
  url(path: string): string;
  /** TCP connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

/** The start page: two images checked with HEAD, then a page fetched with GET. */
const startPage =
  '<!doctype html><title>t</title><img src="/a.png" alt=""><img src="/stray.png" alt="">' +
  '<a href="/next.html">next</a>';

/**
 * A minimal HTTP/1.1 server written on raw sockets, so it can misbehave: with `strayBody`, the
 * HEAD answer for /stray.png is followed by a body, sent just before the next answer.
 */
async function startRawSite(strayBody: boolean): Promise<RawSite> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    site.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    let stray = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
        const [method = '', path = ''] = buffered.slice(0, end).split(' ');
        buffered = buffered.slice(end + 4);
        socket.write(stray + answer(method, path));
        stray = strayBody && method === 'HEAD' && path === '/stray.png' ? 'png' : '';
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const site: RawSite = {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return site;
}

function answer(method: string, path: string): string {
  const html = path === '/' || path === '/next.html';
  const found = html || path.endsWith('.png');
  const body = path === '/' ? startPage : html ? '<title>next</title>' : 'png';
  const head = [
    `HTTP/1.1 ${found ? '200 OK' : '404 Not Found'}`,
    `content-type: ${html ? 'text/html' : found ? 'image/png' : 'text/plain'}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: keep-alive',
  ].join('\r\n');
  return `${head}\r\n\r\n${method === 'HEAD' ? '' : body}`;
}

let site: RawSite | undefined;
afterEach(() => site?.close());

const ok = (url: string) => ({ url, state: 'ok', detail: 200, referenceCount: 1 });

describe('HEAD over keep-alive connections', () => {
  it('checks every link over one connection when the server keeps it open', async () => {
    site = await startRawSite(false);
    const { links } = await collectScan({ url: site.url('/'), scanDepth: 3, maxThreadCount: 1 });
    expect(urlOutcomes(links)).toEqual(
      ['/a.png', '/next.html', '/stray.png'].map((path) => ok(site!.url(path))),
    );
    expect(site.connections).toBe(1);
  });

  it('retries the answer a stray HEAD body broke, on a fresh connection', async () => {
    site = await startRawSite(true);
    const { links } = await collectScan({ url: site.url('/'), scanDepth: 3, maxThreadCount: 1 });
    // (/next.html, fetched with GET right after /stray.png, is the answer that breaks)
    expect(urlOutcomes(links)).toEqual(
      ['/a.png', '/next.html', '/stray.png'].map((path) => ok(site!.url(path))),
    );
    expect(site.connections).toBe(2);
  });
});
