// The crawl benchmark: on the same generated site, measure our CLI, the plain fetch-and-parse
// loop (the physical limit) and linkinator, and compare what each found with the site's truth.
//
//   npm run bench                        (root: builds TypeScript first, sizes 2000 and 10000)
//   npm run bench -w @linkaudit/bench -- --sizes 2000 --tools plain,linkinator
//   BENCH_SIZES=2000,10000,50000 BENCH_LATENCY=5 npm run bench
//
// Options (flag or environment variable):
//   --sizes 2000,10000          BENCH_SIZES      pages per site, one site per size
//   --tools ours,plain,linkinator BENCH_TOOLS    which tools to run
//   --latency 0                 BENCH_LATENCY    ms the server waits before every response
//   --skip-linkinator-above 2000 BENCH_SKIP_LINKINATOR_ABOVE  linkinator gets slow on big sites
//   --seed 1                    BENCH_SEED       generator seed
//   --concurrency 50            BENCH_CONCURRENCY
//   --timeout 600               BENCH_TIMEOUT    seconds before a tool is killed
//   --repeat 1                  BENCH_REPEAT     rounds (tools alternate): median time/RSS, worst findings
//   --keep-alive 30000          BENCH_KEEP_ALIVE ms before the server closes an idle connection
//
// Sites are cached in bench/.sites; raw tool outputs go to bench/results/<stamp>/ and the
// machine-readable summary to bench/results/<stamp>.json.
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSite } from './generator.mjs';
import { killAllChildren, runMeasured, trackChild } from './measure.mjs';
import { TOOLS } from './tools.mjs';
import { compareBroken, goalChecks, printRatios, printTable } from './report.mjs';

const HERE = import.meta.dirname;
const SITES_DIR = path.join(HERE, '.sites');
const RESULTS_DIR = path.join(HERE, 'results');

const OPTION_SPEC = {
  sizes: { env: 'BENCH_SIZES', default: '2000,10000' },
  tools: { env: 'BENCH_TOOLS', default: 'ours,plain,linkinator' },
  latency: { env: 'BENCH_LATENCY', default: '0' },
  'skip-linkinator-above': { env: 'BENCH_SKIP_LINKINATOR_ABOVE', default: '2000' },
  seed: { env: 'BENCH_SEED', default: '1' },
  concurrency: { env: 'BENCH_CONCURRENCY', default: '50' },
  timeout: { env: 'BENCH_TIMEOUT', default: '600' },
  repeat: { env: 'BENCH_REPEAT', default: '1' },
  'keep-alive': { env: 'BENCH_KEEP_ALIVE', default: '30000' },
};

// Flags win over environment variables, which win over defaults.
function readOptions() {
  let parsed;
  try {
    // (types only: defaults are applied below, after the environment variables)
    const flags = Object.fromEntries(
      Object.keys(OPTION_SPEC).map((key) => [key, { type: 'string' }]),
    );
    parsed = parseArgs({ options: flags, strict: true }).values;
  } catch (error) {
    // `npm run bench -- --tools x` at the root passes the flags to the inner `npm run`, which
    // takes them as its own config and hands us only the bare values.
    throw new Error(
      `${error.message}\nFrom the root use environment variables (BENCH_TOOLS=plain npm run bench) ` +
        `or: npm run bench -w @linkaudit/bench -- --tools plain`,
      { cause: error },
    );
  }
  const value = (key) =>
    parsed[key] ?? process.env[OPTION_SPEC[key].env] ?? OPTION_SPEC[key].default;
  const tools = value('tools').split(',').filter(Boolean);
  const unknown = tools.filter((name) => !TOOLS[name]);
  if (unknown.length)
    throw new Error(
      `unknown tool(s) ${unknown.join(', ')}; known: ${Object.keys(TOOLS).join(', ')}`,
    );
  const sizes = value('sizes').split(',').map(Number);
  if (!sizes.every((n) => Number.isInteger(n) && n >= 10)) {
    throw new Error(`--sizes takes page counts ≥ 10, got ${value('sizes')}`);
  }
  return {
    sizes,
    tools,
    latencyMs: Number(value('latency')),
    skipLinkinatorAbove: Number(value('skip-linkinator-above')),
    seed: Number(value('seed')),
    concurrency: Number(value('concurrency')),
    timeoutMs: Number(value('timeout')) * 1000,
    repeat: Math.max(1, Number(value('repeat'))),
    keepAliveMs: Number(value('keep-alive')),
  };
}

// The site server in its own process; resolves once it listens.
function startServer(siteDir, options) {
  const args = [
    siteDir,
    '--latency',
    String(options.latencyMs),
    '--keep-alive',
    String(options.keepAliveMs),
  ];
  const child = trackChild(
    fork(path.join(HERE, 'server.mjs'), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('site server did not start within 120 s')),
      120_000,
    );
    child.once('message', (ready) => {
      clearTimeout(timer);
      resolve({ child, origin: `http://127.0.0.1:${ready.port}`, files: ready.files });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`site server exited with code ${code}`));
    });
  });
}

function stopServer(server) {
  if (server.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once('exit', resolve);
    server.child.kill('SIGTERM');
  });
}

// Runs the tools on one site `repeat` rounds, each tool once per round: the tools alternate, so a
// machine whose speed drifts during the bench (this VM's does, by up to ±30% within minutes)
// slows them alike and their ratios hold. A tool stops at its first failed run.
async function runTools(names, site, options, runDir) {
  const runs = new Map(names.map((name) => [name, []]));
  const failed = new Set();
  for (let n = 1; n <= options.repeat; n++) {
    for (const name of names) {
      const tool = TOOLS[name];
      if (failed.has(name) || tool.unavailable()) continue;
      const run = await runOnce(
        tool,
        site,
        options,
        path.join(runDir, `${site.pages}-${name}-${n}`),
      );
      runs.get(name).push(run);
      if (run.error) failed.add(name);
      globalThis.gc?.();
    }
  }
  return names.map((name) => summarize(TOOLS[name], site, runs.get(name)));
}

// A tool's row: the median run's time and memory and the worst run's findings, every run kept.
function summarize(tool, site, runs) {
  const reason = tool.unavailable();
  if (reason) return { tool: tool.name, pages: site.pages, skipped: reason };
  const failure = runs.find((run) => run.error);
  if (failure) return { tool: tool.name, pages: site.pages, ...failure, runs };
  const median = [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
  const summary = runs.map((run) => ({
    wallMs: run.wallMs,
    cpuMs: run.cpuMs,
    peakRssMb: run.peakRssMb,
    largestProcessRssMb: run.largestProcessRssMb,
    missed: run.missed,
    falseBroken: run.falseBroken,
    loadAverage: run.loadAverage,
  }));
  // CPU time is the median of its own: on a busy machine the median-wall run need not be it.
  const cpuMs = [...runs].map((run) => run.cpuMs).sort((a, b) => a - b)[
    Math.floor((runs.length - 1) / 2)
  ];
  return {
    tool: tool.name,
    pages: site.pages,
    ...median,
    cpuMs,
    ...findings(worst(runs)),
    runs: summary,
  };
}

// The run with the most wrong findings: a tool that is wrong once in three runs is wrong.
function worst(runs) {
  return runs.reduce((a, b) => (b.missed + b.falseBroken > a.missed + a.falseBroken ? b : a));
}

function findings(run) {
  const keys = [
    'brokenFound',
    'brokenExpected',
    'missed',
    'falseBroken',
    'missedUrls',
    'falseBrokenUrls',
  ];
  return Object.fromEntries(keys.map((key) => [key, run[key]]));
}

// One measured run. The load average is recorded because other work on the machine skews times.
async function runOnce(tool, site, options, base) {
  const ctx = { ...site, concurrency: options.concurrency, outFile: `${base}.out.json` };
  const loadAverage = os.loadavg()[0];
  const measured = await runMeasured(tool.executable ?? process.execPath, tool.command(ctx), {
    cwd: HERE,
    timeoutMs: options.timeoutMs,
    stdoutFile: tool.stdoutIsOutput ? ctx.outFile : `${base}.stdout.txt`,
    stderrFile: `${base}.stderr.txt`,
  });
  const run = { ...measured, loadAverage };
  if (measured.timedOut) return { ...run, error: `killed after ${options.timeoutMs / 1000} s` };
  if (!tool.okExitCodes.includes(measured.exitCode)) {
    return {
      ...run,
      error: `exit code ${measured.exitCode ?? measured.signal}, see ${base}.stderr.txt`,
    };
  }
  return { ...run, ...evaluate(tool, ctx, site) };
}

function evaluate(tool, ctx, site) {
  try {
    const found = tool.read(ctx);
    const expectRedirected = tool.expectsRedirectedBroken !== false;
    const check = compareBroken(found.broken, site.truth, site.origin, expectRedirected);
    return { ...found, broken: undefined, ...check };
  } catch (error) {
    return { error: `could not read ${ctx.outFile}: ${error.message}` };
  }
}

function toolsFor(size, options) {
  return options.tools.filter(
    (name) => name !== 'linkinator' || size <= options.skipLinkinatorAbove,
  );
}

async function benchSize(size, options, runDir, results) {
  const started = performance.now();
  const { dir, truth, generated } = ensureSite(SITES_DIR, { pages: size, seed: options.seed });
  const note = generated ? `generated in ${Math.round(performance.now() - started)} ms` : 'cached';
  console.log(
    `\n${size} pages: ${truth.urls.length} URLs, ${Object.keys(truth.broken).length} broken (${note}) ${dir}`,
  );
  const server = await startServer(dir, options);
  try {
    const site = {
      pages: size,
      origin: server.origin,
      truth,
      truthFile: path.join(dir, 'truth.json'),
    };
    const names = toolsFor(size, options);
    process.stdout.write(`  ${names.join(', ')}, alternating, ${options.repeat} round(s) … `);
    const rows = await runTools(names, site, options, runDir);
    console.log('done');
    for (const row of rows) {
      results.push(row);
      const times = row.runs?.map((run) => (run.wallMs / 1000).toFixed(1)).join(', ');
      const cpu = row.runs?.map((run) => (run.cpuMs / 1000).toFixed(1)).join(', ');
      console.log(`  ${row.tool} … ${row.skipped ?? row.error ?? `${times} s (CPU ${cpu} s)`}`);
    }
  } finally {
    await stopServer(server);
  }
}

function machine() {
  return {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
  };
}

async function main() {
  const options = readOptions();
  const info = machine();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = path.join(RESULTS_DIR, stamp);
  mkdirSync(runDir, { recursive: true });
  console.log(
    `crawl benchmark: sizes ${options.sizes.join(', ')}, tools ${options.tools.join(', ')}, ` +
      `concurrency ${options.concurrency}, latency ${options.latencyMs} ms, node ${process.version}, ` +
      `${info.cpus} cpus, load ${info.loadAverageAtStart[0].toFixed(2)}`,
  );
  const results = [];
  for (const size of options.sizes) await benchSize(size, options, runDir, results);
  printTable(results);
  const ratios = printRatios(results, options.sizes);
  const goals = goalChecks(results);
  const file = path.join(RESULTS_DIR, `${stamp}.json`);
  writeFileSync(
    file,
    JSON.stringify({ stamp, machine: info, options, results, ratios, goals }, null, 2),
  );
  console.log(
    `\nresults: ${path.relative(process.cwd(), file)} (raw outputs in ${path.relative(process.cwd(), runDir)}/)`,
  );
}

// Never leave a tool or the server running, whatever happens.
process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAllChildren();
    process.exit(130);
  });
}

try {
  await main();
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
}
