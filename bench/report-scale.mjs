// Report reads at scale (issue 34): does a report read cost a page of rows whatever the scan's
// size, and does the cheap route stay cheap while 100 clients read a big report?
//
// Reads the big scan a `bench/load.mjs --data DIR` run made (load-bench.json in DIR: a scan of the
// generated site of 100,000 pages, 110,528 URLs). Work on a copy of DIR: the built server migrates
// it and stores the report figures of a scan that finished before they existed on its first read
// (timed apart, "first reads"). With --rescan the site is scanned again through the API first
// (its Finalizing step, which stores the figures, is timed) and that scan, which has changes
// against the first, is read. Then, with the server otherwise idle:
//   - every route of `routes()` (the summary, the first and a deep page of every tab, sorted and
//     filtered, the changes view) `--requests` times one after another: p50 / p95 (goal < 100 ms);
//   - the link tab's CSV of every link for up to `--csv-seconds`: rows a second (goal ≥ 20,000);
//   - GET /api/ServerVersion every 50 ms for 10 s: its idle p99.
// Then `--clients` clients read the report routes back to back for `--seconds` (one account: the
// per-user limit answers many 429, counted apart; a refused client waits the Retry-After the
// answer gives, as the report screen does, unless --no-wait) while the probe goes on: its p99
// under load (goal: within 3× idle). DATABASE_URL runs the server on PostgreSQL (the data must be there).
// Everything talks to 127.0.0.1.
//
//   npm run build:ts && node bench/load.mjs --data /tmp/load --seconds 1   # once: the big scan
//   cp -r /tmp/load /tmp/load-copy && node bench/report-scale.mjs --data /tmp/load-copy
//     [--rescan] [--requests 30] [--csv-seconds 30] [--clients 100] [--seconds 60] [--no-wait]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { apiClient, percentile, signIn, waitForScan } from './api-client.mjs';
import { ensureSite } from './generator.mjs';
import {
  benchServerEnvironment,
  freePort,
  sleep,
  startServer,
  stopServer,
} from './server-process.mjs';
import { startSiteServer } from './server.mjs';

const EMAIL = 'load@example.com';
const GOALS = { p95Ms: 100, csvRowsPerSecond: 20_000, versionRatio: 3 };

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    rescan: { type: 'boolean', default: false },
    requests: { type: 'string', default: '30' },
    'csv-seconds': { type: 'string', default: '30' },
    clients: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '60' },
    'no-wait': { type: 'boolean', default: false },
  },
});
if (!values.data) throw new Error('--data DIR (a copy of a bench/load.mjs data folder) is needed');
const options = {
  data: path.resolve(values.data),
  rescan: values.rescan,
  requests: Number(values.requests),
  csvSeconds: Number(values['csv-seconds']),
  clients: Number(values.clients),
  seconds: Number(values.seconds),
  wait: !values['no-wait'],
};

/** One GET: status, milliseconds and the parsed body (JSON) when asked. */
async function get(pool, url, token, parse = false) {
  const started = performance.now();
  const response = await pool.request({
    method: 'GET',
    path: url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.body.text();
  const ms = performance.now() - started;
  if (response.statusCode >= 400 && response.statusCode !== 429) {
    throw new Error(`GET ${url}: ${response.statusCode} ${text.slice(0, 200)}`);
  }
  return {
    status: response.statusCode,
    ms,
    body: parse ? JSON.parse(text) : undefined,
    retryAfter: Number(response.headers['retry-after'] ?? 1),
  };
}

/** A deep page of a list of `total` rows (the middle one) at `pageSize` rows a page. */
const middlePage = (total, pageSize = 50) => Math.max(1, Math.floor(total / pageSize / 2));

/** The report routes a report screen calls on the scan, deep pages placed from the totals. */
async function routes(pool, token, id) {
  const tab = (name, query = '') => `/api/report/${name}/${id}${query ? `?${query}` : ''}`;
  const total = async (url) => (await get(pool, url, token, true)).body.total;
  const links = await total(tab('link', 'status=all&pageSize=1'));
  const broken = await total(tab('link', 'pageSize=1'));
  const notFound = await total(tab('link', 'reason=Not%20Found&pageSize=1'));
  const pages = await total(tab('page', 'pageSize=1'));
  const changes = await total(tab('changes', 'pageSize=1'));
  return [
    ['summary', tab('summary')],
    ['link broken, page 1', tab('link')],
    [`link broken, page ${middlePage(broken)}`, tab('link', `page=${middlePage(broken)}`)],
    ['link all, page 1', tab('link', 'status=all')],
    [`link all, page ${middlePage(links)}`, tab('link', `status=all&page=${middlePage(links)}`)],
    [
      `link all desc, page ${middlePage(links)}`,
      tab('link', `status=all&sortOrder=desc&page=${middlePage(links)}`),
    ],
    [
      'link all by refs desc, page 1',
      tab('link', 'status=all&sortBy=referenceCount&sortOrder=desc'),
    ],
    ['link reason=Not Found, page 1', tab('link', 'reason=Not%20Found')],
    [
      `link reason=Not Found, page ${middlePage(notFound)}`,
      tab('link', `reason=Not%20Found&page=${middlePage(notFound)}`),
    ],
    ['link groupBy=target', tab('link', 'groupBy=target')],
    ['page (by size), page 1', tab('page')],
    [`page (by size), page ${middlePage(pages)}`, tab('page', `page=${middlePage(pages)}`)],
    [
      `page by uri, text/html, page ${middlePage(pages)}`,
      tab('page', `sortBy=uri&category=text%2Fhtml&page=${middlePage(pages)}`),
    ],
    ['ruleResult, page 1', tab('ruleResult')],
    ['ruleCounts', tab('ruleCounts')],
    ['fileType', tab('fileType')],
    ['duplicateAnchor', tab('duplicateAnchor')],
    ['pageInclusion', tab('pageInclusion')],
    ['changes, page 1', tab('changes')],
    [`changes, page ${middlePage(changes)}`, tab('changes', `page=${middlePage(changes)}`)],
    ['changes state=new kind=link', tab('changes', 'state=new&kind=link')],
  ];
}

const fixed = (value, digits = 1) => value.toFixed(digits).padStart(8);

async function timeRoutes(pool, token, list) {
  console.log(`\nidle, ${options.requests} sequential requests each (after 2 warm-up)`);
  console.log(`${'route'.padEnd(40)}  p50 ms   p95 ms   max ms`);
  const missed = [];
  for (const [name, url] of list) {
    for (let index = 0; index < 2; index++) await get(pool, url, token);
    const times = [];
    for (let index = 0; index < options.requests; index++) {
      times.push((await get(pool, url, token)).ms);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    if (p95 >= GOALS.p95Ms) missed.push(name);
    console.log(
      `${name.padEnd(40)} ${fixed(percentile(times, 50))} ${fixed(p95)} ${fixed(times.at(-1))}`,
    );
  }
  return missed;
}

/** The link tab's CSV of every link, read for up to `seconds`: rows (lines) a second. */
async function csvRate(pool, token, id, seconds) {
  const controller = new AbortController();
  const started = performance.now();
  let lines = 0;
  let firstByteMs = NaN;
  try {
    const response = await pool.request({
      method: 'GET',
      path: `/api/report/link/${id}?status=all&format=csv`,
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    for await (const chunk of response.body) {
      if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      if (performance.now() - started > seconds * 1000) {
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  const elapsed = (performance.now() - started) / 1000;
  return { rows: lines - 1, seconds: elapsed, perSecond: (lines - 1) / elapsed, firstByteMs };
}

async function probeVersion(pool, until) {
  const times = [];
  while (!until.done) {
    times.push((await get(pool, '/api/ServerVersion')).ms);
    await sleep(50);
  }
  return times.sort((a, b) => a - b);
}

async function underLoad(pool, token, list) {
  const until = { done: false };
  const probe = probeVersion(pool, until);
  const reads = [];
  let throttled = 0;
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const client = async (index) => {
    for (let call = index; performance.now() < deadline; call++) {
      const [, url] = list[call % list.length];
      try {
        const answer = await get(pool, url, token);
        if (answer.status === 429) {
          throttled++;
          // As the answer asks: again after Retry-After (a browser retries after 1-4 s), unless
          // --no-wait makes every client ask back to back (a storm of refusals, not of reads).
          if (options.wait) await sleep(answer.retryAfter * 1000);
        } else reads.push(answer.ms);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  until.done = true;
  const version = await probe;
  reads.sort((a, b) => a - b);
  return { version, reads, throttled, errors };
}

/** Scans the bench site again as load.mjs scanned it; the new scan and its Finalizing seconds. */
async function rescan(api, token, pages) {
  const { dir } = ensureSite(path.join(import.meta.dirname, '.sites'), { pages, seed: 1 });
  const site = await startSiteServer(dir);
  try {
    const started = performance.now();
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: {
          url: `http://127.0.0.1:${site.port}/`,
          scanDepth: 3,
          scanLimitOption: 1,
          maxLinkAmount: 200_000,
          maxThreadCount: 50,
          maxErrorCount: 1_000_000,
        },
      },
      token,
    );
    let finalizingAt;
    for (;;) {
      const scan = (await api.get('/api/ScanApi/Get', token)).find(
        (item) => item.id === created.id,
      );
      if (scan?.status === 11 && finalizingAt === undefined) finalizingAt = performance.now();
      if (scan && [1, 2, 3, 4, 10].includes(scan.status)) {
        const now = performance.now();
        return {
          scan,
          seconds: (now - started) / 1000,
          finalizingSeconds: finalizingAt === undefined ? NaN : (now - finalizingAt) / 1000,
        };
      }
      await sleep(200);
    }
  } finally {
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
  }
}

async function main() {
  const saved = JSON.parse(readFileSync(path.join(options.data, 'load-bench.json'), 'utf8'));
  const port = await freePort();
  const environment = benchServerEnvironment(options.data, port);
  const { child, origin } = await startServer(environment);
  const pool = new Pool(origin, { connections: Math.max(options.clients, 8) + 4 });
  const api = apiClient(pool);
  try {
    const token = await signIn(api, EMAIL);
    let scanId = saved.scanId;
    if (options.rescan) {
      const again = await rescan(api, token, saved.pages);
      scanId = again.scan.id;
      console.log(
        `rescan of the ${saved.pages}-page site: status ${again.scan.status} in ` +
          `${again.seconds.toFixed(0)} s, of which Finalizing (results written, figures stored) ` +
          `${again.finalizingSeconds.toFixed(1)} s`,
      );
      await waitForScan(api, token, scanId, 60_000);
    }
    console.log(`scan ${scanId}: ${saved.uniqueLinks} unique links`);
    const tab = (name, query = '') => `/api/report/${name}/${scanId}${query ? `?${query}` : ''}`;
    console.log('\nfirst reads (a scan finished before its figures were stored: stored now)');
    for (const [name, url] of [
      ['summary', tab('summary')],
      ['link all, page 1', tab('link', 'status=all')],
      ['changes', tab('changes')],
      ['link all, page 30000', tab('link', 'status=all&page=30000')],
    ]) {
      const { ms } = await get(pool, url, token);
      console.log(`${name.padEnd(40)} ${fixed(ms)} ms`);
    }
    const list = await routes(pool, token, scanId);
    const missed = await timeRoutes(pool, token, list);

    const csv = await csvRate(pool, token, scanId, options.csvSeconds);
    console.log(
      `\nCSV of every link: ${csv.rows} rows in ${csv.seconds.toFixed(1)} s = ` +
        `${csv.perSecond.toFixed(0)} rows/s (first byte ${csv.firstByteMs.toFixed(0)} ms)`,
    );

    const idleUntil = { done: false };
    const idleProbe = probeVersion(pool, idleUntil);
    await sleep(10_000);
    idleUntil.done = true;
    const idle = await idleProbe;
    const idleP99 = percentile(idle, 99);
    console.log(
      `\nGET /api/ServerVersion idle: ${idle.length} probes, p50 ${percentile(idle, 50).toFixed(1)} ` +
        `ms, p99 ${idleP99.toFixed(1)} ms`,
    );

    const loaded = await underLoad(pool, token, list);
    const loadedP99 = percentile(loaded.version, 99);
    console.log(
      `\n${options.clients} clients reading the report routes for ${options.seconds} s: ` +
        `${loaded.reads.length} answers (p50 ${percentile(loaded.reads, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(loaded.reads, 99).toFixed(0)} ms, max ${(loaded.reads.at(-1) ?? NaN).toFixed(0)} ms), ` +
        `${loaded.throttled} × 429, ${loaded.errors} errors`,
    );
    console.log(
      `GET /api/ServerVersion under load: ${loaded.version.length} probes, p50 ` +
        `${percentile(loaded.version, 50).toFixed(1)} ms, p99 ${loadedP99.toFixed(1)} ms ` +
        `(${(loadedP99 / idleP99).toFixed(2)}× idle), max ${(loaded.version.at(-1) ?? NaN).toFixed(0)} ms`,
    );
    console.log(
      `\ngoals: p95 < ${GOALS.p95Ms} ms ${missed.length ? `missed by ${missed.join(', ')}` : 'met by every route'}; ` +
        `CSV ${csv.perSecond >= GOALS.csvRowsPerSecond ? 'met' : 'missed'}; ServerVersion p99 ` +
        `${loadedP99 <= GOALS.versionRatio * idleP99 ? 'met' : 'missed'} (≤ ${GOALS.versionRatio}× idle)`,
    );
  } finally {
    await pool.close();
    await stopServer(child);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
