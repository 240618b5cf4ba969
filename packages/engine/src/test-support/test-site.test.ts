// The kit on its own (no engine): what the scenario tests rely on the test sites to do.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  createLookup,
  headRefused,
  hugePage,
  positionOf,
  redirect,
  sequence,
  startTestSite,
  testCertificates,
  type TestSite,
} from './index.js';

const lookup = createLookup(['site.test', 'www.site.test']);

function agent(options: { ca?: string } = {}): Agent {
  return new Agent({ connect: { lookup, ...(options.ca ? { ca: options.ca } : {}) } });
}

async function failureCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;
  }
}

describe('createLookup', () => {
  it('maps chosen names to 127.0.0.1 in both callback forms and fails others with ENOTFOUND', async () => {
    const one = promisify((name: string, cb: (e: Error | null, a?: unknown) => void) =>
      lookup(name, {}, (error, address) => cb(error, address)),
    );
    const all = promisify((name: string, cb: (e: Error | null, a?: unknown) => void) =>
      lookup(name, { all: true }, (error, address) => cb(error, address)),
    );
    await expect(one('www.site.test')).resolves.toBe('127.0.0.1');
    await expect(all('SITE.test')).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(one('cdn.other.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(lookup.asked).toEqual(['www.site.test', 'SITE.test', 'cdn.other.test']);
  });
});

describe('startTestSite over HTTP', () => {
  let site: TestSite;
  const huge = hugePage('<a href="/early">early</a>', '<a href="/late">late</a>', 8 * 1024 * 1024);
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'linkaudit-folder-'));
    mkdirSync(path.join(folder, 'docs'));
    writeFileSync(path.join(folder, 'docs', 'index.html'), '<p>docs</p>');
    site = await startTestSite(
      {
        '/': '<a href="/x">x</a>',
        '/q?a=1': 'with query',
        '/moved': redirect('/'),
        '/flaky': sequence({ status: 503 }, 'second time lucky'),
        '/no-head': headRefused('get works'),
        '/gzip': { body: 'compressed', encoding: 'gzip' },
        '/slow': { body: 'late', delayMs: 5_000 },
        '/reset': { reset: true },
        '/huge': huge.route,
      },
      { host: 'site.test', folder },
    );
  });
  afterAll(async () => {
    await site.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('serves routes, folder files and 404, and records every request', async () => {
    const dispatcher = agent();
    const home = await fetch(site.url('/'), { dispatcher, headers: { 'user-agent': 'kit-test' } });
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toBe('<a href="/x">x</a>');
    expect(await (await fetch(site.url('/q?a=1'), { dispatcher })).text()).toBe('with query');
    expect((await fetch(site.url('/q?a=2'), { dispatcher })).status).toBe(404);
    expect(await (await fetch(site.url('/docs/'), { dispatcher })).text()).toBe('<p>docs</p>');
    const www = await fetch(site.url('/', { host: 'www.site.test' }), {
      method: 'HEAD',
      dispatcher,
    });
    expect(www.status).toBe(200);

    expect(site.origin).toBe(`http://site.test:${site.port}`);
    expect(site.requestsFor('/')).toEqual([
      expect.objectContaining({ method: 'GET', host: 'site.test', protocol: 'http' }),
      expect.objectContaining({ method: 'HEAD', host: 'www.site.test' }),
    ]);
    expect(site.requestsFor('/')[0]?.headers['user-agent']).toBe('kit-test');
    await dispatcher.close();
  });

  it('redirects, answers in sequence, refuses HEAD, compresses, delays and resets', async () => {
    const dispatcher = agent();
    const moved = await fetch(site.url('/moved'), { dispatcher, redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/']);
    expect((await fetch(site.url('/flaky'), { dispatcher })).status).toBe(503);
    expect((await fetch(site.url('/flaky'), { dispatcher })).status).toBe(200);
    expect((await fetch(site.url('/no-head'), { method: 'HEAD', dispatcher })).status).toBe(405);
    expect((await fetch(site.url('/no-head'), { dispatcher })).status).toBe(200);
    const gzip = await fetch(site.url('/gzip'), { dispatcher });
    expect([gzip.headers.get('content-encoding'), await gzip.text()]).toEqual([
      'gzip',
      'compressed',
    ]);
    const code = await failureCode(
      fetch(site.url('/slow'), { dispatcher, signal: AbortSignal.timeout(200) }),
    );
    expect(code).toBe(23); // DOMException TimeoutError
    expect(await failureCode(fetch(site.url('/reset'), { dispatcher }))).toBe('UND_ERR_SOCKET');
    await dispatcher.close();
  });

  it('streams a huge page and stops when the client stops reading', async () => {
    const dispatcher = agent();
    const response = await fetch(site.url('/huge'), { dispatcher });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value).toString()).toContain('<a href="/early">');
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(huge.bytesSent()).toBeLessThan(8 * 1024 * 1024);
    await dispatcher.close();
  });
});

describe('startTestSite over HTTPS', () => {
  const certificates = testCertificates(['site.test', 'www.site.test', '127.0.0.1']);
  let trusted: TestSite;
  let selfSigned: TestSite;

  beforeAll(async () => {
    trusted = await startTestSite(
      { '/': 'secure' },
      { tls: certificates.trusted, host: 'site.test' },
    );
    selfSigned = await startTestSite({ '/': 'unsafe' }, { tls: certificates.selfSigned });
  });
  afterAll(async () => {
    await trusted.close();
    await selfSigned.close();
  });

  it('is trusted with the private CA and not without it', async () => {
    const withCa = agent({ ca: certificates.authority.cert });
    expect(await (await fetch(trusted.url('/'), { dispatcher: withCa })).text()).toBe('secure');
    expect(await failureCode(fetch(trusted.url('/'), { dispatcher: agent() }))).toBe(
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    );
    expect(await failureCode(fetch(selfSigned.url('/'), { dispatcher: withCa }))).toBe(
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    );
    await withCa.close();
  });

  it('also answers plain HTTP on the same port', async () => {
    const response = await fetch(trusted.url('/', { protocol: 'http' }), { dispatcher: agent() });
    expect(await response.text()).toBe('secure');
    expect(trusted.requests.map((r) => r.protocol)).toContain('http');
  });
});

describe('helpers', () => {
  it('finds a closed port and source positions', async () => {
    const port = await closedPort();
    expect(await failureCode(fetch(`http://127.0.0.1:${port}/`))).toBe('ECONNREFUSED');
    expect(positionOf('<p>\n  <a href="/x">', '<a ')).toEqual({ line: 2, column: 3 });
  });
});
