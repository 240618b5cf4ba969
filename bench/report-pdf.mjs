// The report PDF of a 20,000-link scan (issue 23): time to first byte, total time and the server
// process's memory while it writes the PDF (GET /api/report/pdf/{id}).
//
// Starts the built server (packages/server/dist/main.js, SQLite in a fresh temporary DATA_DIR, or
// DATABASE_URL when given) as its own process, scans the generated bench site through the API
// (Enterprise plan, whole site, anchors and all rules on, as bench/bi-feed.mjs does), then reads
// the PDF `--repeat` times in each language, one after the other. The server's resident set is
// polled every 10 ms (/proc/<pid>/status) while the PDFs are read; its growth over the resident
// set just before is the PDF's memory. With `--slow-kbps n` the client reads at most n kB/s (the
// server must wait for it rather than buffer the document).
//
//   npm run build:ts && node bench/report-pdf.mjs [--pages 600] [--repeat 3] [--slow-kbps 0]
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { apiClient, signUp, waitForScan } from './api-client.mjs';
import { ensureSite } from './generator.mjs';
import { benchServerEnvironment, freePort, startServer, stopServer } from './server-process.mjs';
import { startSiteServer } from './server.mjs';

const HERE = import.meta.dirname;
const SITES_DIR = path.join(HERE, '.sites');

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '600' },
    repeat: { type: 'string', default: '3' },
    'slow-kbps': { type: 'string', default: '0' },
  },
});
const options = {
  pages: Number(values.pages),
  repeat: Number(values.repeat),
  slowKbps: Number(values['slow-kbps']),
};

/** Resident set of the process in MB, or null once it is gone. */
function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return null;
  }
}

/** Reads one PDF; answers first-byte and total times and its bytes. */
async function readPdf(pool, scanId, language, token) {
  const started = performance.now();
  let firstByteMs;
  const response = await pool.request({
    method: 'GET',
    path: `/api/report/pdf/${scanId}?lang=${language}`,
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.statusCode !== 200) {
    throw new Error(`${response.statusCode} ${(await response.body.text()).slice(0, 200)}`);
  }
  const chunks = [];
  let bytes = 0;
  for await (const chunk of response.body) {
    firstByteMs ??= performance.now() - started;
    chunks.push(chunk);
    bytes += chunk.length;
    // A slow client: wait as long as n kB/s takes for this chunk.
    if (options.slowKbps > 0) await sleep((chunk.length / 1024 / options.slowKbps) * 1000);
  }
  return { firstByteMs, totalMs: performance.now() - started, bytes, body: Buffer.concat(chunks) };
}

/** The PDF's page count (poppler's pdfinfo), or '?' without it. */
function pageCount(body) {
  const file = path.join(os.tmpdir(), `linkaudit-bench-${process.pid}.pdf`);
  writeFileSync(file, body);
  try {
    return (
      /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1] ?? '?'
    );
  } catch {
    return '?';
  } finally {
    rmSync(file, { force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (value, digits = 1) => value.toFixed(digits).padStart(8);

async function main() {
  const { dir } = ensureSite(SITES_DIR, { pages: options.pages, seed: 1 });
  const site = await startSiteServer(dir);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-pdf-'));
  const port = await freePort();
  const environment = benchServerEnvironment(dataDir, port);
  const { child, origin } = await startServer(environment);
  const pool = new Pool(origin, { connections: 2 });
  const api = apiClient(pool);
  try {
    const token = await signUp(api, environment, 'bench@example.com');
    const rules = await api.get('/api/ScanRuleApi/', token);
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: {
          url: `http://127.0.0.1:${site.port}/`,
          scanDepth: 3,
          scanLimitOption: 1,
          maxLinkAmount: 100_000,
          maxThreadCount: 50,
          checkAnchors: true,
          selectedRules: rules.map((rule) => rule.linkAuditorRuleID),
        },
      },
      token,
    );
    const scan = await waitForScan(api, token, created.id, 600_000);
    console.log(
      `scan of ${options.pages} pages: ${scan.totalLinks} links, ${scan.uniqueLinks} unique URLs, ` +
        `${scan.badLinks} broken; ${os.cpus().length} cores, Node ${process.version}, ` +
        `${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}` +
        (options.slowKbps > 0 ? `, client reading ${options.slowKbps} kB/s` : ''),
    );

    // Warm-up: the first read after the scan pays for the database's cold pages and the font.
    await readPdf(pool, scan.id, 'en', token);

    let peak = 0;
    const before = rssMb(child.pid);
    const poller = setInterval(() => {
      peak = Math.max(peak, rssMb(child.pid) ?? 0);
    }, 10);
    console.log(`\n${options.repeat} reads each, medians`);
    console.log(`${'language'.padEnd(10)} pages       MB  first byte ms  total ms`);
    try {
      for (const language of ['en', 'zh-CN']) {
        const runs = [];
        for (let index = 0; index < options.repeat; index++) {
          runs.push(await readPdf(pool, scan.id, language, token));
        }
        const last = runs.at(-1);
        console.log(
          `${language.padEnd(10)} ${String(pageCount(last.body)).padStart(5)} ${fixed(last.bytes / 1e6, 2)} ` +
            `${fixed(median(runs.map((run) => run.firstByteMs)))}      ${fixed(median(runs.map((run) => run.totalMs)))}`,
        );
      }
    } finally {
      clearInterval(poller);
    }
    console.log(
      `\nserver resident set: ${before?.toFixed(0)} MB before the PDF reads, peak ${peak.toFixed(0)} MB ` +
        `while reading (+${(peak - (before ?? 0)).toFixed(0)} MB)`,
    );
  } finally {
    await pool.close();
    await stopServer(child);
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
