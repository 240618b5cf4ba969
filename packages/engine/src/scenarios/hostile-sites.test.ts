// Hostile sites (issue 21): servers built to hold a crawler forever or to blow its memory. Each
// case must end with a clear result (the link's failure reason, a finding, or the scan stopping
// with a stated cause) within a time bound, and where memory is the attack, within a memory bound.
// The engine runs with short time limits here (a 1.5 s request deadline under a 10 s idle
// timeout, so only the deadline can end a trickle); the bounds scale with them.
import { once } from 'node:events';
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  FailureReason,
  ScanDepth,
  ScanLimitOption,
  ScanStatus,
  type ScanRequestInput,
} from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineOptions, LinkEvent } from '../index.js';
import {
  collectScan,
  createLookup,
  htmlPage,
  hugePage,
  redirect,
  startTestSite,
  type CollectedScan,
  type RouteContext,
  type RouteHandler,
  type TestSite,
} from '../test-support/index.js';

const MiB = 1024 * 1024;
const deadlineMs = 1_500;
const hostileOptions = {
  requestTimeoutMs: 10_000,
  requestDeadlineMs: deadlineMs,
  retries: 1,
  retryBaseDelayMs: 10,
} as const satisfies EngineOptions;

const lookup = createLookup(['site.test', 'silent.test']);
let site: TestSite;
let silent: SilentServer;
const timings: Array<{ name: string; ms: number; result: string }> = [];

// --- Hostile answers -------------------------------------------------------------------------

/** Sends `first`, then one byte every 100 ms until the client goes away. */
function trickle(socketOf: (request: IncomingMessage) => net.Socket, first: string): RouteHandler {
  return async (request, _response, context) => {
    const socket = socketOf(request);
    socket.write(first);
    while (!context.signal.aborted && !socket.destroyed) {
      await sleepUnlessAborted(100, context);
      if (!socket.destroyed) socket.write('x');
    }
  };
}

function sleepUnlessAborted(ms: number, context: RouteContext): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    context.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), {
      once: true,
    });
  });
}

/** A body trickled after complete headers: the idle timeout never trips. */
const trickleBody = trickle(
  (request) => request.socket,
  'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: identity\r\n\r\n<html><body>',
);

/** Headers trickled a byte at a time: never complete. */
const trickleHeaders = trickle((request) => request.socket, 'HTTP/1.1 200 OK\r\nX-Slow: ');

/** Writes `raw` to the socket and drops the connection. */
function resetAfter(raw: string): RouteHandler {
  return (request) => {
    request.socket.end(raw, () => request.socket.destroy());
  };
}

/** Half a page (it promises 100,000 bytes), then a reset. */
const resetMidBody: RouteHandler = (request, response) => {
  response.writeHead(200, { 'content-type': 'text/html', 'content-length': 100_000 });
  response.write(`<html><body><a href="/before-reset">before</a>${' '.repeat(2000)}`, () =>
    request.socket.destroy(),
  );
};

interface GzipBomb {
  handler: RouteHandler;
  /** Bytes on the wire if the whole body were sent. */
  compressedBytes: number;
  inflatedBytes: number;
  /** Compressed bytes written for the last GET. */
  sent(): number;
}

/**
 * A gzip body of `head` and then gigabytes of spaces: 16 MiB of spaces compress to ~16 KB, and
 * gzip members concatenated inflate one after another (RFC 1952), so the body is one small
 * member repeated.
 */
function gzipBomb(contentType: string, head: string, inflatedBytes: number): GzipBomb {
  const member = gzipSync(Buffer.alloc(16 * MiB, 0x20), { level: 9 });
  const first = gzipSync(head);
  const count = Math.ceil(inflatedBytes / (16 * MiB));
  let sent = 0;
  const handler: RouteHandler = async (request, response, context) => {
    response.writeHead(200, { 'content-type': contentType, 'content-encoding': 'gzip' });
    if (request.method === 'HEAD') return void response.end();
    sent = 0;
    const write = async (bytes: Buffer) => {
      sent += bytes.length;
      if (!response.write(bytes)) await once(response, 'drain', { signal: context.signal });
    };
    await write(first);
    for (let i = 0; i < count && !context.signal.aborted; i++) await write(member);
    response.end();
  };
  return {
    handler,
    compressedBytes: first.length + count * member.length,
    inflatedBytes: head.length + count * 16 * MiB,
    sent: () => sent,
  };
}

/** 1,000,000 links streamed (never held): `<a href=/p/N></a>`. */
const millionLinks: RouteHandler = async (_request, response, context) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.write('<!doctype html><html><head><title>Links</title></head><body>\n');
  for (let start = 0; start < 1_000_000 && !context.signal.aborted; start += 10_000) {
    let chunk = '';
    for (let n = start; n < start + 10_000; n++) chunk += `<a href=/p/${n}></a>\n`;
    if (!response.write(chunk)) await once(response, 'drain', { signal: context.signal });
  }
  response.end('</body></html>\n');
};

/** Every path under the families below is a page, so each family is endless. */
const endlessFamilies: RouteHandler = (request, response) => {
  const url = new URL(request.url ?? '/', 'http://x');
  const page = (body: string) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage(body));
  // /chain/N redirects to /chain/N+1, forever.
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    response.writeHead(302, { location: `/chain/${Number(chain[1]) + 1}` }).end();
    return;
  }
  // A relative link to its own folder name: /rel/ → /rel/rel/ → /rel/rel/rel/ …
  if (url.pathname.startsWith('/rel/')) return void page('<a href="rel/">deeper</a>');
  // A page linking to itself with one more parameter: ?p=1 → ?p=1&p=2 → …
  if (url.pathname === '/grow') {
    const next = url.searchParams.getAll('p').length + 1;
    return void page(`<a href="?${url.searchParams.toString()}&p=${next}">more</a>`);
  }
  // A calendar with a "next year" link, for ever.
  const calendar = /^\/cal\/(\d{4})\/01$/.exec(url.pathname);
  if (calendar) return void page(`<a href="/cal/${Number(calendar[1]) + 1}/01">next year</a>`);
  // Every page has three new children, one level deeper: endless unique URLs.
  if (url.pathname.startsWith('/tree/')) {
    const base = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    return void page([1, 2, 3].map((k) => `<a href="${base}${k}">${k}</a>`).join('\n'));
  }
  if (url.pathname.startsWith('/p/')) return void page('a page');
  response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
};

/** A server that accepts connections and never says a word. */
interface SilentServer {
  port: number;
  close(): Promise<void>;
}

async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// --- Site and helpers ------------------------------------------------------------------------

const huge = hugePage(
  '<!doctype html><html><head><title>Huge</title></head><body>\n<a href="/early">early</a>\n',
  '<a href="/late">late</a></body></html>\n',
  100 * 1024 * 1024,
);
const htmlBomb = gzipBomb(
  'text/html',
  '<!doctype html><html><head><title>Bomb</title></head><body><a href="/early">early</a>',
  100 * 1024 * MiB,
);
const imageBomb = gzipBomb('image/png', 'PNG', 10 * 1024 * MiB);

/** A start page linking to `hrefs`, at /start/<name>. */
function startPage(name: string, hrefs: string[]): string {
  const path = `/start/${name}`;
  site.routes[path] = htmlPage(hrefs.map((href) => `<a href="${href}">${href}</a>`).join('\n'));
  return site.url(path);
}

beforeAll(async () => {
  silent = await startSilentServer();
  site = await startTestSite(
    {
      '/early': 'early',
      '/before-reset': 'fine',
      '/trickle-body': { handler: trickleBody },
      '/trickle-headers': { handler: trickleHeaders },
      '/reset-headers': { handler: resetAfter('HTTP/1.1 200 OK\r\nContent-Type: text/ht') },
      '/reset-body': { handler: resetMidBody },
      '/loop/a': redirect('/loop/b'),
      '/loop/b': redirect('/loop/a'),
      '/bomb.html': { handler: htmlBomb.handler },
      '/bomb.png': { handler: imageBomb.handler },
      '/huge': huge.route,
      '/million': { handler: millionLinks },
    },
    { host: 'site.test', fallback: { handler: endlessFamilies } },
  );
});

afterAll(async () => {
  await site.close();
  await silent.close();
  console.log(
    'hostile sites:\n' +
      timings
        .map((t) => `  ${t.name.padEnd(24)} ${String(t.ms).padStart(6)} ms  ${t.result}`)
        .join('\n'),
  );
});

interface TimedScan extends CollectedScan {
  ms: number;
  peakRssGrowth: number;
}

/** Crawls the whole site (unless told otherwise) with the hostile options, timing it and sampling the process's RSS meanwhile. */
async function hostileScan(
  name: string,
  settings: ScanRequestInput,
  options: EngineOptions = {},
): Promise<TimedScan> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const started = performance.now();
  try {
    const scan = await collectScan(
      { scanDepth: ScanDepth.Domain, ...settings },
      { lookup, ...hostileOptions, ...options },
    );
    const ms = Math.round(performance.now() - started);
    timings.push({ name, ms, result: '' });
    return { ...scan, ms, peakRssGrowth: Math.max(peak, process.memoryUsage.rss()) - baseline };
  } finally {
    clearInterval(sampler);
  }
}

/** Records the case's result line for the timing table. */
function noteResult(result: string): void {
  timings[timings.length - 1]!.result = result;
}

function linkTo(scan: CollectedScan, url: string): LinkEvent {
  const link = scan.links.find((event) => event.url === url);
  if (!link) throw new Error(`no link event for ${url}`);
  return link;
}

function brokenReason(scan: CollectedScan, url: string): string {
  const check = linkTo(scan, url).check;
  return check.state === 'broken' ? `${check.reason}: ${check.message}` : check.state;
}

// --- The cases -------------------------------------------------------------------------------

describe('slow and silent servers', () => {
  it('a body trickled a byte every 100 ms is cut at the request deadline: Time Out', async () => {
    const scan = await hostileScan('trickling body', {
      url: startPage('trickle-body', ['/trickle-body']),
    });
    const check = linkTo(scan, site.url('/trickle-body')).check;
    noteResult(brokenReason(scan, site.url('/trickle-body')));
    expect(check).toMatchObject({
      state: 'broken',
      reason: FailureReason.TimeOut,
      statusCode: 200,
      errorCode: 'ERR_REQUEST_DEADLINE',
    });
    expect(scan.pages.map((page) => page.url)).not.toContain(site.url('/trickle-body'));
    expect(scan.done.status).toBe(ScanStatus.Complete);
    expect(scan.ms).toBeLessThan(deadlineMs + 3_000);
  });

  it('headers trickled a byte at a time end at the deadline, retried once: Time Out', async () => {
    const scan = await hostileScan('trickling headers', {
      url: startPage('trickle-headers', ['/trickle-headers']),
    });
    noteResult(brokenReason(scan, site.url('/trickle-headers')));
    expect(linkTo(scan, site.url('/trickle-headers')).check).toMatchObject({
      state: 'broken',
      reason: FailureReason.TimeOut,
      errorCode: 'ERR_REQUEST_DEADLINE',
    });
    // A deadline counts as a timeout: one retry, never a third request.
    expect(site.requestsFor('/trickle-headers')).toHaveLength(2);
    expect(scan.ms).toBeLessThan(2 * deadlineMs + 3_000);
  });

  it('a server that accepts and never answers: Time Out', async () => {
    const url = `http://silent.test:${silent.port}/`;
    const scan = await hostileScan('accepts, never answers', {
      url: startPage('silent', [url]),
    });
    noteResult(brokenReason(scan, url));
    expect(linkTo(scan, url).check).toMatchObject({
      state: 'broken',
      reason: FailureReason.TimeOut,
    });
    expect(scan.ms).toBeLessThan(2 * deadlineMs + 3_000);
  });
});

describe('connection resets', () => {
  it('a reset in the middle of the headers: Service Unavailable', async () => {
    const scan = await hostileScan('reset mid-headers', {
      url: startPage('reset-headers', ['/reset-headers']),
    });
    noteResult(brokenReason(scan, site.url('/reset-headers')));
    expect(linkTo(scan, site.url('/reset-headers')).check).toMatchObject({
      state: 'broken',
      reason: FailureReason.ServiceUnavailable,
    });
    expect(scan.ms).toBeLessThan(3_000);
  });

  it('a reset in the middle of a page: the page keeps what arrived', async () => {
    const scan = await hostileScan('reset mid-body', {
      url: startPage('reset-body', ['/reset-body']),
    });
    noteResult('page read up to the reset, its links checked');
    expect(scan.pages.map((page) => page.url)).toContain(site.url('/reset-body'));
    expect(linkTo(scan, site.url('/before-reset')).check.state).toBe('ok');
    expect(scan.done.status).toBe(ScanStatus.Complete);
    expect(scan.ms).toBeLessThan(3_000);
  });
});

describe('endless redirects', () => {
  it('a redirect loop: Bad Request, named as a loop', async () => {
    const scan = await hostileScan('redirect loop', { url: startPage('loop', ['/loop/a']) });
    noteResult(brokenReason(scan, site.url('/loop/a')));
    const check = linkTo(scan, site.url('/loop/a')).check;
    expect(check).toMatchObject({ state: 'broken', reason: FailureReason.BadRequest });
    expect(check.state === 'broken' && check.message).toMatch(/^Redirect loop: /);
    expect(scan.ms).toBeLessThan(3_000);
  });

  it('a chain of ever-new URLs: Bad Request after the redirect limit', async () => {
    const scan = await hostileScan('redirect chain', { url: startPage('chain', ['/chain/1']) });
    noteResult(brokenReason(scan, site.url('/chain/1')).slice(0, 60));
    const check = linkTo(scan, site.url('/chain/1')).check;
    expect(check).toMatchObject({ state: 'broken', reason: FailureReason.BadRequest });
    expect(check.state === 'broken' && check.message).toMatch(/^Too many redirects \(21\)/);
    expect(site.requestedPaths().filter((path) => path.startsWith('/chain/'))).toHaveLength(21);
    expect(scan.ms).toBeLessThan(3_000);
  });
});

describe('memory attacks', () => {
  it('a gzip bomb page (100 GiB inflated) is read only up to maxPageBytes', async () => {
    const scan = await hostileScan('gzip bomb', {
      url: startPage('bomb', ['/bomb.html']),
      checkImages: true,
    });
    const page = scan.pages.find((event) => event.url === site.url('/bomb.html'));
    noteResult(
      `page read ${page?.bytes} bytes of ${htmlBomb.inflatedBytes}; sent ${htmlBomb.sent()} of ${htmlBomb.compressedBytes} compressed; RSS +${Math.round(scan.peakRssGrowth / MiB)} MiB`,
    );
    expect(page?.bytes).toBe(20 * MiB);
    expect(linkTo(scan, site.url('/early')).check.state).toBe('ok');
    // (What was sent beyond the ~20 KB that inflate to 20 MiB sat in socket buffers.)
    expect(htmlBomb.sent()).toBeLessThan(16 * MiB);
    expect(scan.peakRssGrowth).toBeLessThan(256 * MiB);
    expect(scan.ms).toBeLessThan(10_000);
  });

  it('a gzip bomb image is measured by its compressed bytes, never inflated', async () => {
    site.routes['/start/bomb-image'] = htmlPage('<img src="/bomb.png" alt="bomb">');
    const scan = await hostileScan('gzip bomb image', { url: site.url('/start/bomb-image') });
    const check = linkTo(scan, site.url('/bomb.png')).check;
    noteResult(
      `${check.state}, size ${check.state === 'ok' ? check.size : '?'}; RSS +${Math.round(scan.peakRssGrowth / MiB)} MiB`,
    );
    expect(check).toMatchObject({ state: 'ok', size: imageBomb.compressedBytes });
    expect(scan.peakRssGrowth).toBeLessThan(256 * MiB);
    expect(scan.ms).toBeLessThan(10_000);
  });

  it('a 100 MB page is streamed, read up to maxPageBytes and not held', async () => {
    const scan = await hostileScan('100 MB page', { url: startPage('huge', ['/huge']) });
    const page = scan.pages.find((event) => event.url === site.url('/huge'));
    noteResult(
      `page read ${page?.bytes} bytes; sent ${huge.bytesSent()}; RSS +${Math.round(scan.peakRssGrowth / MiB)} MiB`,
    );
    expect(page?.bytes).toBe(20 * MiB);
    expect(linkTo(scan, site.url('/early')).check.state).toBe('ok');
    expect(huge.bytesSent()).toBeLessThan(100 * MiB);
    expect(scan.peakRssGrowth).toBeLessThan(256 * MiB);
    expect(scan.ms).toBeLessThan(10_000);
  });

  it('a page with 1,000,000 links: 100,000 read, one finding for the rest', async () => {
    const scan = await hostileScan(
      '10^6 links',
      {
        url: site.url('/million'),
        scanDepth: 1,
        scanLimitOption: ScanLimitOption.Limited,
        maxLinkAmount: 1_000,
      },
      // (Streaming and reading 17 MB of links takes longer than the suite's short deadline.)
      { maxPageBytes: 64 * MiB, requestDeadlineMs: 30_000, linkEvents: 'problems' },
    );
    const capped = scan.links.filter((link) => /links than the scan reads/.test(messageOf(link)));
    noteResult(
      `${scan.done.summary.totalLinks} links taken in, RSS +${Math.round(scan.peakRssGrowth / MiB)} MiB; ${messageOf(capped[0])}`,
    );
    expect(scan.pages[0]?.linkCount).toBe(100_001);
    expect(capped).toHaveLength(1);
    expect(capped[0]).toMatchObject({ url: '/p/100000', line: 100_002 });
    expect(messageOf(capped[0])).toMatch(/this one and the 899,999 after it were not read/);
    expect(scan.done.summary.totalLinks).toBe(100_001);
    expect(scan.done.stoppedBy).toBe('link-limit');
    expect(scan.ms).toBeLessThan(15_000);
  });
});

describe('endless unique URLs', () => {
  it('a folder that links to itself relatively is a trap, named on its link', async () => {
    const scan = await hostileScan('repeating path', { url: site.url('/rel/') });
    const trapped = linkTo(scan, site.url('/rel/rel/rel/'));
    noteResult(messageOf(trapped));
    expect(trapped.check).toEqual({
      state: 'skipped',
      cause: 'crawler-trap',
      message: 'Not followed: a crawler trap (the path repeats "rel/" 3 times in a row)',
    });
    expect(scan.pages.map((page) => page.url)).toEqual([site.url('/rel/'), site.url('/rel/rel/')]);
    expect(scan.ms).toBeLessThan(3_000);
  });

  it('a query string that grows with every page is a trap', async () => {
    const scan = await hostileScan('growing query', { url: site.url('/grow?p=1') });
    const trapped = scan.links.find((link) => link.check.state === 'skipped');
    noteResult(`${trapped?.url}: ${messageOf(trapped)}`);
    expect(trapped?.url).toBe(site.url('/grow?p=1&p=2&p=3'));
    expect(messageOf(trapped)).toBe(
      'Not followed: a crawler trap (the query repeats the parameter "p" 3 times)',
    );
    expect(scan.pages).toHaveLength(2);
  });

  it('a calendar with an endless "next year" is followed 10 years ahead, then stopped', async () => {
    const thisYear = new Date().getUTCFullYear();
    const scan = await hostileScan('calendar', { url: site.url(`/cal/${thisYear}/01`) });
    const trapped = linkTo(scan, site.url(`/cal/${thisYear + 11}/01`));
    noteResult(messageOf(trapped));
    expect(messageOf(trapped)).toBe(
      `Not followed: a crawler trap (a calendar date in ${thisYear + 11}, more than 10 years ahead)`,
    );
    expect(scan.pages).toHaveLength(11);
  });

  it('pages that each link to three new deeper pages end at the URL limit', async () => {
    const scan = await hostileScan('endless tree', {
      url: site.url('/tree/'),
      scanLimitOption: ScanLimitOption.Limited,
      maxLinkAmount: 500,
    });
    noteResult(`${scan.done.summary.uniqueLinks} URLs, stopped by ${scan.done.stoppedBy}`);
    expect(scan.done.status).toBe(ScanStatus.OverMaxLinks);
    expect(scan.done.stoppedBy).toBe('link-limit');
    expect(scan.ms).toBeLessThan(10_000);
  });
});

function messageOf(link: LinkEvent | undefined): string {
  const check = link?.check;
  return check && 'message' in check ? check.message : '';
}
