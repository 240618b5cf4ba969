// Where the `linkaudit` command's peak memory comes: during the crawl, or after it, while the
// report is made and written. One scan of a generated site per output format, with the process's
// resident set (VmRSS, and its high-water mark VmHWM) and its open sockets polled every 20 ms. The
// crawl ends when the engine closes its connection pool (the last socket closes); what the
// high-water mark adds after that is the report's.
//
//   npm run build:ts && node bench/report-memory.mjs [--size 100000] [--formats json,text,csv,junit,sarif]
//     [--repeat 1] [--max-errors 1000000] [--timeline] [--cli path/to/bin/linkaudit]
//
// --cli runs another build of the command (another commit's packages/cli, built beside this one so
// it finds the same node_modules), for before/after figures on the same site.
// --max-errors defaults to a million so the whole site is crawled (the bench site has ~5 % more
// broken URLs than pages / 20, more than the CLI's default limit of 5,000 at 100,000 pages).
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSite } from './generator.mjs';
import { spawnSiteServer } from './site-server-process.mjs';
import { OUR_BIN } from './tools.mjs';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    formats: { type: 'string', default: 'json,text,csv,junit,sarif' },
    repeat: { type: 'string', default: '1' },
    'max-errors': { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '50' },
    timeline: { type: 'boolean', default: false },
    cli: { type: 'string', default: OUR_BIN },
  },
});
const size = Number(values.size);
const repeat = Number(values.repeat);
const formats = values.formats.split(',').filter(Boolean);
const POLL_MS = 20;

/** VmRSS and VmHWM in MB, or null once the process is gone. */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

function openSockets(pid) {
  try {
    let sockets = 0;
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets += 1;
      } catch {
        // closed while we looked
      }
    }
    return sockets;
  } catch {
    return 0;
  }
}

function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}

/** One scan; resolves with the samples and the figures read from them. */
function scanOnce(origin, format, work) {
  const output = path.join(work, `report.${format}`);
  rmSync(output, { force: true });
  const args = [
    values.cli,
    'scan',
    `${origin}/`,
    '--depth',
    'site',
    '--concurrency',
    values.concurrency,
    '--max-errors',
    values['max-errors'],
    '--format',
    format,
    '--output',
    output,
  ];
  const started = performance.now();
  // stderr to a file, not a pipe: Node's pipes are sockets, and sockets are what is counted.
  const stderrFile = path.join(work, 'stderr.txt');
  const errFd = openSync(stderrFile, 'w');
  const child = spawn('/bin/sh', args, { stdio: ['ignore', 'ignore', errFd] });
  const samples = [];
  const timer = setInterval(() => {
    const mem = memory(child.pid);
    if (!mem || mem.hwm === 0) return; // gone, or a zombie
    samples.push({
      ms: performance.now() - started,
      ...mem,
      sockets: openSockets(child.pid),
      bytes: fileSize(output),
    });
  }, POLL_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      closeSync(errFd);
      const stderr = readFileSync(stderrFile, 'utf8');
      if (code !== 0 && code !== 1) {
        reject(new Error(`linkaudit exited with ${code}: ${stderr}`));
        return;
      }
      resolve({
        format,
        samples,
        wallMs: performance.now() - started,
        stderr,
        ...figures(samples),
      });
    });
  });
}

/** The high-water mark when the last socket closed (the crawl's) and at the end (the whole run's). */
function figures(samples) {
  const lastWithSockets = samples.findLastIndex((sample) => sample.sockets > 0);
  const crawlEnd = samples[lastWithSockets] ?? samples[0];
  const last = samples.at(-1);
  const fileOpened = samples.find((sample) => sample.bytes >= 0);
  // The report's file is opened once the engine has finished and the collector has sorted: the
  // high-water mark just before is everything but the writing of the report.
  const beforeFile = samples.findLast((sample) => sample.bytes < 0) ?? samples[0];
  return {
    crawlEndMs: crawlEnd.ms,
    crawlPeakMb: crawlEnd.hwm,
    rssAtCrawlEndMb: crawlEnd.rss,
    peakMb: last.hwm,
    fileOpenedMs: fileOpened?.ms ?? null,
    beforeFileMb: beforeFile.hwm,
    endMs: last.ms,
  };
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const mb = (value) => value.toFixed(0).padStart(5);
const s = (ms) => (ms / 1000).toFixed(2).padStart(6);
const signed = (value) => `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(0).padStart(3)}`;

async function main() {
  if (!existsSync(values.cli)) throw new Error(`${values.cli} not found: npm run build:ts`);
  const site = ensureSite(path.join(import.meta.dirname, '.sites'), { pages: size });
  const { server, origin } = await spawnSiteServer(site.dir);
  const work = mkdtempSync(path.join(tmpdir(), 'linkaudit-report-memory-'));
  try {
    console.log(
      `${size} pages, --max-errors ${values['max-errors']}, --concurrency ${values.concurrency}; MB and s`,
    );
    console.log(
      'format  crawl peak  RSS at crawl end  peak before the file  whole-run peak  after crawl  writing  crawl ends  file opened  exit',
    );
    for (const format of formats) {
      const runs = [];
      for (let round = 0; round < repeat; round++) {
        const run = await scanOnce(origin, format, work);
        runs.push(run);
        if (values.timeline) {
          // Every tenth sample of the crawl, every sample of its last second and after.
          const shown = run.samples.filter(
            (sample, index) => index % 10 === 0 || sample.ms >= run.crawlEndMs - 1000,
          );
          for (const sample of shown) {
            console.log(
              `  ${s(sample.ms)} rss ${mb(sample.rss)} hwm ${mb(sample.hwm)} sockets ${sample.sockets} file ${sample.bytes}`,
            );
          }
        }
        console.error(`  ${format} round ${round + 1}: ${run.stderr.trim()}`);
      }
      const pick = (key) => median(runs.map((run) => run[key]));
      const crawlPeak = pick('crawlPeakMb');
      const peak = pick('peakMb');
      const beforeFile = pick('beforeFileMb');
      console.log(
        `${format.padEnd(6)}  ${mb(crawlPeak)}       ${mb(pick('rssAtCrawlEndMb'))}             ${mb(beforeFile)}                 ${mb(peak)}        ${signed(peak - crawlPeak)}    ${signed(peak - beforeFile)}     ${s(pick('crawlEndMs'))}       ${s(pick('fileOpenedMs') ?? 0)}  ${s(pick('endMs'))}`,
      );
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
