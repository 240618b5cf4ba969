// The Power BI / OData feed of a 20,000-link scan (issue 23): time to first byte, total time to
// read a whole entity set through its server-driven pages, and the server process's memory.
//
// Starts the built server (packages/server/dist/main.js, SQLite in a fresh temporary DATA_DIR, or
// DATABASE_URL when given) as its own process, scans the generated bench site through the API
// (Enterprise plan, whole site, anchors and all rules on), makes a personal access token, then
// reads each feed request below `--repeat` times as an OData client does: one request after the
// other, following @odata.nextLink, Basic authentication. The server's resident set is polled
// every 10 ms (/proc/<pid>/status) while the feed is read; its growth over the resident set just
// before is the feed's memory.
//
//   npm run build:ts && node bench/bi-feed.mjs [--pages 600] [--repeat 3]
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { apiClient, scanBenchSite, signUp } from './api-client.mjs';
import { ensureSite } from './generator.mjs';
import { benchServerEnvironment, freePort, startServer, stopServer } from './server-process.mjs';
import { startSiteServer } from './server.mjs';

const HERE = import.meta.dirname;
const SITES_DIR = path.join(HERE, '.sites');

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '600' },
    repeat: { type: 'string', default: '3' },
  },
});
const options = { pages: Number(values.pages), repeat: Number(values.repeat) };

/** The feed requests measured: a whole entity set each, as Power BI refreshes a table. */
function feedRequests() {
  return [
    ['Links, all (pages of 1,000)', 'Links', {}],
    ['Links, all (pages of 5,000)', 'Links', { prefer: 'odata.maxpagesize=5000' }],
    [
      "Links $filter=state eq 'broken' or anchorState eq 'missing'",
      `Links?$filter=${encodeURIComponent("state eq 'broken' or anchorState eq 'missing'")}`,
      {},
    ],
    [
      "Links $filter=contains(targetUri,'/s0/s1/')&$select=…",
      `Links?$filter=${encodeURIComponent("contains(targetUri,'/s0/s1/')")}&$select=sourceUri,targetUri,statusCode`,
      {},
    ],
    ['Links $orderby=targetUri desc', 'Links?$orderby=targetUri%20desc', {}],
    ['Links $count=true&$top=10', 'Links?$count=true&$top=10', {}],
    ['Pages, all', 'Pages', {}],
    ['Rules, all', 'Rules', {}],
    ['FileTypes, all', 'FileTypes', {}],
  ];
}

/** Resident set of the process in MB, or null once it is gone. */
function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return null;
  }
}

/** Reads every page of one request; answers first-byte and total times, rows, pages and bytes. */
async function readFeed(pool, root, resource, headers) {
  const started = performance.now();
  let firstByteMs;
  let firstPageMs;
  let next = `${root}${resource}`;
  let rows = 0;
  let pages = 0;
  let bytes = 0;
  while (next) {
    const url = new URL(next);
    const response = await pool.request({
      method: 'GET',
      path: url.pathname + url.search,
      headers,
    });
    if (response.statusCode !== 200) {
      throw new Error(
        `${next}: ${response.statusCode} ${(await response.body.text()).slice(0, 200)}`,
      );
    }
    const chunks = [];
    for await (const chunk of response.body) {
      firstByteMs ??= performance.now() - started;
      chunks.push(chunk);
      bytes += chunk.length;
    }
    firstPageMs ??= performance.now() - started;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    rows += body.value.length;
    pages += 1;
    next = body['@odata.nextLink'];
  }
  return { firstByteMs, firstPageMs, totalMs: performance.now() - started, rows, pages, bytes };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (value, digits = 1) => value.toFixed(digits).padStart(8);

async function main() {
  const { dir } = ensureSite(SITES_DIR, { pages: options.pages, seed: 1 });
  const site = await startSiteServer(dir);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-bi-'));
  const port = await freePort();
  const environment = benchServerEnvironment(dataDir, port);
  const { child, origin } = await startServer(environment);
  const pool = new Pool(origin, { connections: 4 });
  const api = apiClient(pool);
  try {
    const token = await signUp(api, environment, 'bench@example.com');
    const { scan } = await scanBenchSite(api, token, site.port);
    const { token: accessToken } = await api.post('/api/bi/tokens', { name: 'bench' }, token);
    const root = `/PowerBi/odata/${scan.id}/`;
    const auth = `Basic ${Buffer.from(`bench:${accessToken}`).toString('base64')}`;
    console.log(
      `scan of ${options.pages} pages: ${scan.totalLinks} links, ${scan.uniqueLinks} unique URLs, ` +
        `${scan.badLinks} broken; ${os.cpus().length} cores, Node ${process.version}, ` +
        `${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`,
    );

    // Warm-up: the first read of a table after the scan pays for the database's cold pages.
    await readFeed(pool, origin + root, 'Links', { authorization: auth });

    let peak = 0;
    const before = rssMb(child.pid);
    const poller = setInterval(() => {
      peak = Math.max(peak, rssMb(child.pid) ?? 0);
    }, 10);
    console.log(`\n${options.repeat} reads each, medians; a read follows every @odata.nextLink`);
    console.log(
      `${'request'.padEnd(58)} rows   pages      MB  first byte ms  first page ms  total ms`,
    );
    try {
      for (const [name, resource, extra] of feedRequests()) {
        const runs = [];
        for (let index = 0; index < options.repeat; index++) {
          runs.push(
            await readFeed(pool, origin + root, resource, { authorization: auth, ...extra }),
          );
        }
        const last = runs.at(-1);
        console.log(
          `${name.padEnd(58)} ${String(last.rows).padStart(5)} ${String(last.pages).padStart(5)} ` +
            `${fixed(last.bytes / 1e6, 2)} ${fixed(median(runs.map((run) => run.firstByteMs)))}      ` +
            `${fixed(median(runs.map((run) => run.firstPageMs)))}  ${fixed(median(runs.map((run) => run.totalMs)))}`,
        );
      }
    } finally {
      clearInterval(poller);
    }
    console.log(
      `\nserver resident set: ${before?.toFixed(0)} MB before the feed reads, peak ${peak.toFixed(0)} MB ` +
        `while reading (+${(peak - (before ?? 0)).toFixed(0)} MB)`,
    );
  } finally {
    await pool.close();
    await stopServer(child);
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
    if (process.env.BENCH_KEEP_DATA) console.log(`database kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
