// The scale bench through the server (issue 34): a generated site scanned whole through the API
// of the built server, with the wall time, CPU and peak memory of every phase of the scan.
//
// The site (scale-site.mjs) is made up on each request by a loopback server in its own process,
// so 10^6 pages cost no disk and neither it nor this bench grows with the page count:
//   --site tree     (default) --pages N pages, each linking its 10 children, its parent and an
//                   image; every 20th page links a missing page (~5 % internal 404s)
//   --site endless  the same tree without end, scanned to the link limit (--max-links, 100,000)
//   --site links    one page of --links links (10^6 by default) to distinct URLs
// The server (packages/server/dist/main.js) runs as its own process with SQLite in a temporary
// DATA_DIR, or with --postgres on a fresh database (scale_<pid>, created and dropped here), an
// Enterprise account, a whole-site scan (50 threads) with a link limit above the site's URLs.
// Every 100 ms the bench reads /proc for the server and its descendants (the scan runs in a
// process of its own, SCAN_ISOLATION): CPU (user + sys) and resident memory, and it polls the
// scan's status through the API every 250 ms; each status (SPEC §4: 6 Queued, 5 In progress,
// 9 Rule checking, 11 Finalizing, then finished) is a phase. With --cli the same site is scanned
// by packages/cli/bin/linkaudit instead (wall, CPU and peak RSS of the whole run).
// --prof DIR writes V8 CPU profiles of the server and its scan process (or the CLI) to DIR;
// --keep keeps the server's data folder (or PostgreSQL database) and prints where it is.
//
//   npm run build:ts && node bench/scale.mjs --pages 10000
//   node bench/scale.mjs --pages 100000 --postgres postgres://postgres@127.0.0.1:5432
//   node bench/scale.mjs --site links --cli
//   ENTERPRISE_URLS_PER_SCAN=1100000 node bench/scale.mjs --pages 1000000   (past the price list's cap)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { apiClient, isFinishedScan, signUp } from './api-client.mjs';
import { runMeasured } from './measure.mjs';
import { treeFigures } from './scale-site.mjs';
import {
  benchServerEnvironment,
  freePort,
  sleep,
  startServer,
  stopServer,
} from './server-process.mjs';
import { descendants, postgresPids, processSample } from './process-sample.mjs';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '..');
const CLI = path.join(ROOT, 'packages/cli/bin/linkaudit');
const SAMPLE_MS = 100;
/**
 * The most URLs one scan of the bench's account may check: the Enterprise plan's 500,000, or the
 * server's ENTERPRISE_URLS_PER_SCAN (it inherits this process's environment).
 */
const ENTERPRISE_URLS_PER_SCAN = Number(process.env.ENTERPRISE_URLS_PER_SCAN ?? 500_000);
const STATUS_MS = 250;
const STATUS_NAMES = {
  1: 'Complete',
  2: 'Cancelled',
  3: 'Failed',
  4: 'Timeout',
  5: 'In progress',
  6: 'Queued',
  9: 'Rule checking',
  10: 'Limit reached',
  11: 'Finalizing',
};

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'tree' },
    pages: { type: 'string', default: '10000' },
    links: { type: 'string', default: '1000000' },
    'max-links': { type: 'string' },
    postgres: { type: 'string' },
    cli: { type: 'boolean', default: false },
    prof: { type: 'string' },
    timeout: { type: 'string', default: '7200' },
    keep: { type: 'boolean', default: false },
  },
});
const site = values.site;
if (!['tree', 'endless', 'links'].includes(site)) throw new Error(`unknown --site ${site}`);
const size = site === 'links' ? Number(values.links) : Number(values.pages);
const expected = site === 'tree' ? treeFigures(size) : undefined;
const options = {
  site,
  size,
  maxLinks: Number(
    values['max-links'] ??
      (site === 'tree' ? expected.urls + 1000 : site === 'links' ? size + 10 : 100_000),
  ),
  postgres: values.postgres ?? (values.cli ? undefined : process.env.DATABASE_URL),
  cli: values.cli,
  prof: values.prof ? path.resolve(values.prof) : undefined,
  timeoutMs: Number(values.timeout) * 1000,
  keep: values.keep,
};

/** The site as a child process; resolves with it and its origin once it listens. */
function startSite() {
  const child = spawn(process.execPath, [path.join(HERE, 'scale-site.mjs'), site, String(size)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(chunk));
      if (match) resolve({ child, origin: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`the site server exited with ${code}`)));
  });
}

/**
 * Samples the server, each of its descendants (the scan's process, the spare started ahead) and,
 * on PostgreSQL, the database's processes: the last CPU figure of every process, and per phase the
 * CPU spent and the largest resident memory seen.
 */
class Sampler {
  /** pid → last { cpuMs, rssMb, hwmMb } */
  last = new Map();
  phases = [];
  /** The CPU of every process when the current phase started. */
  #phaseStartCpu = new Map();

  constructor(serverPid, withDatabase) {
    this.serverPid = serverPid;
    this.withDatabase = withDatabase;
  }

  sample() {
    const pids = [this.serverPid, ...descendants(this.serverPid)];
    if (this.withDatabase) pids.push(...postgresPids());
    for (const pid of pids) {
      const sample = processSample(pid);
      if (!sample) continue;
      this.last.set(pid, sample);
      const phase = this.phases.at(-1);
      if (phase) phase.rssMb.set(pid, Math.max(phase.rssMb.get(pid) ?? 0, sample.rssMb));
    }
  }

  /** Starts a phase (a status seen for the first time); ends the one before. */
  enter(status) {
    this.sample();
    const now = performance.now();
    this.#close(now);
    this.phases.push({ status, startedMs: now, rssMb: new Map(), cpuMs: new Map() });
    this.#phaseStartCpu = new Map([...this.last].map(([pid, s]) => [pid, s.cpuMs]));
  }

  end() {
    this.sample();
    this.#close(performance.now());
  }

  #close(now) {
    const phase = this.phases.at(-1);
    if (!phase || phase.wallMs !== undefined) return;
    phase.wallMs = now - phase.startedMs;
    for (const [pid, { cpuMs }] of this.last)
      phase.cpuMs.set(pid, cpuMs - (this.#phaseStartCpu.get(pid) ?? 0));
  }
}

/** Creates the scan's database; the URL the server gets, and how to drop it afterwards. */
function freshDatabase(base) {
  const url = new URL(base);
  const name = `scale_${process.pid}`;
  const connection = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username];
  execFileSync('createdb', [...connection, name]);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => execFileSync('dropdb', [...connection, '--if-exists', '--force', name]),
  };
}

function scanSettings(origin) {
  return {
    url: `${origin}/`,
    scanDepth: 3,
    scanLimitOption: 1,
    maxLinkAmount: options.maxLinks,
    maxErrorCount: 10_000_000,
    maxDepth: 1000,
    maxThreadCount: 50,
  };
}

/** Polls the scan's status, a phase per status seen; the finished scan's list entry. */
async function followScan(api, token, id, sampler) {
  const deadline = performance.now() + options.timeoutMs;
  let status = 6; // the phase entered when the scan was created
  let urls = 0;
  for (;;) {
    const scan = (await api.get('/api/ScanApi/Get', token)).find((item) => item.id === id);
    // The last time the scan counted more URLs: where the crawl ended within In progress (the
    // passes after the crawl run under that status too).
    if (scan && scan.uniqueLinks !== urls && scan.status === 5) {
      urls = scan.uniqueLinks;
      sampler.crawlEndedMs = performance.now();
    }
    if (scan && scan.status !== status) {
      status = scan.status;
      if (isFinishedScan(scan)) {
        sampler.end();
        return scan;
      }
      sampler.enter(status);
      console.log(
        `  ${(performance.now() / 1000).toFixed(1).padStart(8)} s  status ${status} ` +
          `(${STATUS_NAMES[status] ?? '?'}), ${scan.uniqueLinks} URLs`,
      );
    }
    if (performance.now() > deadline) throw new Error(`scan ${id} still ${status}`);
    await sleep(STATUS_MS);
  }
}

/**
 * Which process was the scan's: of the server's descendants, the one that spent the most CPU
 * (the other is the spare process started ahead for the next scan, idle).
 */
function scanProcessOf(sampler) {
  let best;
  for (const pid of descendants(sampler.serverPid).concat([...sampler.last.keys()])) {
    if (pid === sampler.serverPid || sampler.postgres?.has(pid)) continue;
    const cpu = sampler.last.get(pid)?.cpuMs ?? 0;
    if (!best || cpu > best.cpu) best = { pid, cpu };
  }
  return best?.pid;
}

async function runServer() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-scale-'));
  const database = options.postgres ? freshDatabase(options.postgres) : undefined;
  const port = await freePort();
  const environment = {
    ...benchServerEnvironment(dataDir, port),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.prof
      ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${options.prof} --cpu-prof-interval=1000` }
      : {}),
  };
  if (!database) delete environment.DATABASE_URL;
  const { origin: siteOrigin, child: siteChild } = await startSite();
  const { child, origin } = await startServer(environment);
  const pool = new Pool(origin, { connections: 4 });
  const api = apiClient(pool);
  try {
    const token = await signUp(api, environment, 'scale@example.com');
    const sampler = new Sampler(child.pid, Boolean(database));
    const databasePids = database ? new Set(postgresPids()) : new Set();
    sampler.postgres = databasePids;
    const timer = setInterval(() => sampler.sample(), SAMPLE_MS);
    const started = performance.now();
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: scanSettings(siteOrigin) },
      token,
    );
    sampler.enter(6);
    const scan = await followScan(api, token, created.id, sampler);
    const wallMs = performance.now() - started;
    clearInterval(timer);
    // Backends that started for the scan count as the database's too.
    if (database) for (const pid of postgresPids()) databasePids.add(pid);
    const scanPid = scanProcessOf(sampler);
    const inProgress = sampler.phases.find((phase) => phase.status === 5);
    const afterCrawlS =
      inProgress && sampler.crawlEndedMs
        ? (inProgress.startedMs + inProgress.wallMs - sampler.crawlEndedMs) / 1000
        : undefined;
    return {
      scan,
      wallMs,
      afterCrawlS,
      phases: describePhases(sampler, child.pid, scanPid, databasePids),
    };
  } finally {
    await pool.close();
    await stopServer(child);
    siteChild.kill();
    if (options.keep) console.log(`kept: ${database ? database.url : dataDir}`);
    else {
      rmSync(dataDir, { recursive: true, force: true });
      database?.drop();
    }
  }
}

function describePhases(sampler, serverPid, scanPid, databasePids) {
  const sum = (map, pids) => [...map].reduce((s, [pid, v]) => s + (pids(pid) ? v : 0), 0);
  return sampler.phases.map((phase) => ({
    status: phase.status,
    name: STATUS_NAMES[phase.status] ?? String(phase.status),
    wallS: phase.wallMs / 1000,
    server: {
      cpuS: (phase.cpuMs.get(serverPid) ?? 0) / 1000,
      rssMb: phase.rssMb.get(serverPid) ?? 0,
    },
    scan: { cpuS: (phase.cpuMs.get(scanPid) ?? 0) / 1000, rssMb: phase.rssMb.get(scanPid) ?? 0 },
    ...(databasePids.size
      ? {
          database: {
            cpuS: sum(phase.cpuMs, (pid) => databasePids.has(pid)) / 1000,
            rssMb: sum(phase.rssMb, (pid) => databasePids.has(pid)),
          },
        }
      : {}),
  }));
}

async function runCli() {
  const { origin, child } = await startSite();
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-scale-cli-'));
  try {
    const args = [
      'scan',
      `${origin}/`,
      '--depth',
      'site',
      '--concurrency',
      '50',
      '--max-links',
      String(options.maxLinks),
      '--max-errors',
      '10000000',
      '--max-depth',
      '1000',
      '--format',
      'json',
      '--output',
      path.join(outDir, 'report.json'),
      '--quiet',
    ];
    const env = {
      ...process.env,
      ...(options.prof ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${options.prof}` } : {}),
    };
    const run = await runMeasured(CLI, args, {
      cwd: ROOT,
      env,
      timeoutMs: options.timeoutMs,
      stdoutFile: path.join(outDir, 'stdout'),
      stderrFile: path.join(outDir, 'stderr'),
    });
    if (run.exitCode !== 0 && run.exitCode !== 1) {
      throw new Error(
        `the CLI ended with ${run.exitCode ?? run.signal}: ${readFileSync(path.join(outDir, 'stderr'), 'utf8').slice(-500)}`,
      );
    }
    const report = JSON.parse(readFileSync(path.join(outDir, 'report.json'), 'utf8'));
    const summary = report.summary ?? {};
    return {
      wallMs: run.wallMs,
      cpuMs: run.cpuMs,
      peakRssMb: run.peakRssMb,
      uniqueLinks: summary.uniqueLinks,
      totalLinks: summary.totalLinks,
      brokenLinks: summary.uniqueBrokenLinks ?? summary.brokenLinks,
      pages: summary.pages,
    };
  } finally {
    child.kill();
    rmSync(outDir, { recursive: true, force: true });
  }
}

const fmt = (value, digits = 1) => value.toFixed(digits).padStart(9);

function printServer({ scan, wallMs, phases, afterCrawlS }) {
  const db = phases.some((phase) => phase.database);
  console.log(
    `\n${'phase'.padEnd(14)}   wall s  server CPU s  server MB  scan CPU s   scan MB` +
      (db ? '  db CPU s' : ''),
  );
  for (const phase of phases) {
    console.log(
      `${phase.name.padEnd(14)}${fmt(phase.wallS)}${fmt(phase.server.cpuS).padStart(14)}` +
        `${fmt(phase.server.rssMb, 0).padStart(11)}${fmt(phase.scan.cpuS).padStart(12)}` +
        `${fmt(phase.scan.rssMb, 0).padStart(10)}` +
        (phase.database ? fmt(phase.database.cpuS).padStart(10) : ''),
    );
  }
  const cpu = (key) => phases.reduce((sum, phase) => sum + (phase[key]?.cpuS ?? 0), 0);
  const peak = (key) => Math.max(...phases.map((phase) => phase[key]?.rssMb ?? 0));
  const totals = {
    wallS: wallMs / 1000,
    serverCpuS: cpu('server'),
    scanCpuS: cpu('scan'),
    databaseCpuS: cpu('database'),
    serverPeakMb: peak('server'),
    scanPeakMb: peak('scan'),
  };
  console.log(
    `${'total'.padEnd(14)}${fmt(totals.wallS)}${fmt(totals.serverCpuS).padStart(14)}` +
      `${fmt(totals.serverPeakMb, 0).padStart(11)}${fmt(totals.scanCpuS).padStart(12)}` +
      `${fmt(totals.scanPeakMb, 0).padStart(10)}` +
      (db ? fmt(totals.databaseCpuS).padStart(10) : ''),
  );
  console.log(
    `\nscan ${scan.status} (${STATUS_NAMES[scan.status]}): ${scan.uniqueLinks} URLs, ` +
      `${scan.totalLinks} links, ${scan.uniqueBadLinks} broken URLs; ` +
      `${((wallMs / 1000 / Math.max(1, scan.uniqueLinks)) * 1e6).toFixed(0)} µs a URL`,
  );
  if (afterCrawlS !== undefined)
    console.log(
      `In progress after the last new URL (the passes after the crawl): ${afterCrawlS.toFixed(1)} s`,
    );
  return totals;
}

async function main() {
  const what =
    site === 'tree'
      ? `a tree of ${size} pages (${expected.urls} URLs, ${expected.missing} missing, ` +
        `${expected.links} links)`
      : site === 'endless'
        ? 'an endless tree'
        : `one page of ${size} links`;
  const where = options.cli
    ? 'the CLI'
    : options.postgres
      ? 'the server, PostgreSQL'
      : 'the server, SQLite';
  console.log(`scale: ${what} through ${where}, link limit ${options.maxLinks}`);
  if (!options.cli && options.maxLinks > ENTERPRISE_URLS_PER_SCAN)
    console.log(
      `note: the Enterprise plan checks at most ${ENTERPRISE_URLS_PER_SCAN} URLs a scan ` +
        '(ENTERPRISE_URLS_PER_SCAN raises it): the scan ends Limit reached (10) there',
    );
  if (options.prof) mkdirSync(options.prof, { recursive: true });
  const result = { options, expected, machine: { loadavg: os.loadavg(), cpus: os.cpus().length } };
  if (options.cli) {
    result.cli = await runCli();
    const { wallMs, cpuMs, peakRssMb, uniqueLinks, brokenLinks } = result.cli;
    console.log(
      `CLI: ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s CPU, ` +
        `${peakRssMb.toFixed(0)} MB peak; ${uniqueLinks} URLs, ${brokenLinks} broken; ` +
        `${((wallMs / Math.max(1, uniqueLinks)) * 1000).toFixed(0)} µs a URL`,
    );
  } else {
    result.server = await runServer();
    result.server.totals = printServer(result.server);
  }
  result.machine.loadavgAfter = os.loadavg();
  const resultsDir = path.join(HERE, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(
    resultsDir,
    `scale-${site}-${size}-${options.cli ? 'cli' : options.postgres ? 'pg' : 'sqlite'}-` +
      `${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(file, JSON.stringify(result, null, 2));
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
