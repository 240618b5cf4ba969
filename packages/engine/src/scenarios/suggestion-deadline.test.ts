// The suggestion pass (issue 27) within its deadline: http hosts whose https never answers (the
// listener takes the TLS hello and stays silent) hold every https-twin probe, yet the scan ends
// once the pass's time is up; the fixes of broken links and the facts come first and are kept,
// and the links the pass did not reach have no fix.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus, type Suggestion } from '@linkaudit/core';
import type { SuggestionEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  eventsOfType,
  htmlPage,
  redirect,
  startTestSite,
  testCertificates,
  type CollectedScan,
  type TestSite,
} from '../test-support/index.js';

/** An http site whose https on the same port accepts the connection and never answers. */
async function silentHttpsHost(): Promise<{ url: string; close: () => Promise<void> }> {
  const held = new Set<net.Socket>();
  const site = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><head><title>Plain</title></head><body>plain</body></html>');
  });
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      // 0x16 starts a TLS handshake record: hold it, no answer, no close.
      if (chunk[0] === 0x16) return void held.add(socket);
      socket.pause();
      socket.unshift(chunk);
      site.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/page.html`,
    close: async () => {
      for (const socket of held) socket.destroy();
      site.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const names = ['site.test', 'twin.test'];
const certificates = testCertificates(names);
let silent: Array<Awaited<ReturnType<typeof silentHttpsHost>>>;
let twin: TestSite;
let site: TestSite;
let scan: CollectedScan;

beforeAll(async () => {
  // Three rounds of four probes at once: without the deadline the pass waits 3 × 5 s for them.
  silent = await Promise.all(Array.from({ length: 12 }, silentHttpsHost));
  twin = await startTestSite(
    { '/page.html': htmlPage('same', '<title>Twin page</title>') },
    { tls: certificates.trusted, host: 'twin.test' },
  );
  const link = (href: string) => `<a href="${href}">${href}</a>`;
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          link('/moved'),
          link('/docs/getting-startd.html'),
          ...silent.map((host) => link(host.url)),
          // Last: its probe would answer at once, but the silent hosts' probes come first.
          link(twin.url('/page.html', { protocol: 'http' })),
          link('/docs/getting-started.html'),
        ].join('\n'),
      ),
      '/moved': redirect('/docs/getting-started.html', 301),
      '/docs/getting-started.html': htmlPage('start'),
    },
    { host: 'site.test' },
  );
  scan = await collectScan(
    { url: site.url('/'), scanDepth: 3 },
    {
      lookup: createLookup(names),
      ca: certificates.authority.cert,
      retries: 0,
      suggestions: true,
      // Time enough for the broken link's fix (one fetch of a local page) on a loaded machine.
      suggestionDeadlineMs: 1_500,
    },
  );
}, 30_000);
afterAll(async () => {
  await Promise.all([site, twin, ...silent].map((server) => server.close()));
});

function suggestionFor(url: string): Suggestion | undefined {
  return eventsOfType(scan.events, 'suggestion').find((event: SuggestionEvent) => event.url === url)
    ?.suggestion;
}

describe('the suggestion pass’s deadline', () => {
  it('ends the scan with the links it did not reach left without a fix', () => {
    expect(scan.done.status).toBe(ScanStatus.Complete);
    // Every silent host was checked (http answers), none got a fix.
    for (const host of silent) {
      expect(scan.links.find((event) => event.url === host.url)?.check.state).toBe('ok');
      expect(suggestionFor(host.url)).toBeUndefined();
    }
    // The twin would be offered https (suggestions.test.ts), had the pass reached it.
    expect(suggestionFor(twin.url('/page.html', { protocol: 'http' }))).toBeUndefined();
  });

  it('keeps the facts and the broken links’ fixes, which come before the https probes', () => {
    expect(suggestionFor(site.url('/moved'))).toMatchObject({ kind: 'redirect' });
    expect(suggestionFor(site.url('/docs/getting-startd.html'))).toMatchObject({
      kind: 'closest-page',
      url: site.url('/docs/getting-started.html'),
    });
  });
});
