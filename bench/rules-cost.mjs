// What the quality rules cost inside a crawl (issue 5's goal: all rules on may take at most 1.5×
// the time of the same scan with rules off). The engine scans the generated site in a fresh
// child process per run, once with no rules and once with `--rules all`, alternating so that
// both see the same machine load; each child reports its own CPU time, wall time and peak RSS.
//
//   npm run build:ts && node bench/rules-cost.mjs [--size 10000] [--repeat 3] [--cli]
//
// By default the engine runs alone (events dropped): the rules' own cost. With --cli the whole
// `linkaudit` command runs instead (its report collector and JSON report included).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSite } from './generator.mjs';
import { runMeasured } from './measure.mjs';
import { OUR_BIN, OUR_CLI } from './tools.mjs';
import { spawnSiteServer } from './site-server-process.mjs';

const HERE = import.meta.dirname;
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '3' },
    cli: { type: 'boolean', default: false },
    // internal: one measured engine run in this process
    child: { type: 'string' },
  },
});
const variants = [
  { name: 'rules off', flags: [] },
  { name: 'all rules', flags: ['--rules', 'all'] },
];
// The memory flags the `linkaudit` launcher gives Node, read from it so both stay the same.
const NODE_FLAGS =
  readFileSync(OUR_BIN, 'utf8')
    .match(/^exec .*$/m)?.[0]
    .match(/--[\w-]+(=\S+)?/g) ?? [];

/** Child side: one engine scan with the CLI's settings for these arguments, events dropped. */
async function engineRun(argv) {
  // As the `linkaudit` launcher does (cli/src/launch.ts): the rule worker then loads its
  // modules from the compile cache too, as it does in every real scan.
  enableCompileCache();
  const { parseCommandLine } = await import(path.join(HERE, '../packages/cli/dist/index.js'));
  const { crawlSettingsFor, runScan } = await import(
    path.join(HERE, '../packages/engine/dist/index.js')
  );
  const command = await parseCommandLine(argv);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const threadBefore = process.threadCpuUsage();
  const done = await runScan(crawlSettingsFor(command.settings), {
    ...command.engine,
    onEvent() {},
  });
  const cpu = process.cpuUsage(cpuBefore);
  const thread = process.threadCpuUsage(threadBefore);
  const result = {
    wallMs: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    // The crawl's own thread, without the rule worker and Node's helper threads.
    mainCpuMs: (thread.user + thread.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    pages: done.summary.pages,
    status: done.status,
  };
  process.stdout.write(JSON.stringify(result));
}

/** Runs a child process and resolves with what it printed. */
function capture(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`engine run exited with ${code}`)),
    );
  });
}

async function measureOnce(origin, variant, work) {
  const scanArgs = ['scan', `${origin}/`, '--depth', 'site', '-q', ...variant.flags];
  if (values.cli) {
    const outFile = path.join(work, 'out.json');
    const run = await runMeasured('/bin/sh', [OUR_BIN, ...scanArgs, '-f', 'json', '-o', outFile], {
      cwd: work,
      env: process.env,
      timeoutMs: 600_000,
      stdoutFile: path.join(work, 'stdout.txt'),
      stderrFile: path.join(work, 'stderr.txt'),
    });
    if (![0, 1].includes(run.exitCode)) throw new Error(`linkaudit exited with ${run.exitCode}`);
    return { wallMs: run.wallMs, cpuMs: NaN, peakRssMb: run.peakRssMb };
  }
  const args = [
    ...NODE_FLAGS,
    path.join(HERE, 'rules-cost.mjs'),
    '--child',
    JSON.stringify(scanArgs),
  ];
  return JSON.parse(await capture(process.execPath, args));
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const seconds = (ms) => (Number.isNaN(ms) ? '   -  ' : (ms / 1000).toFixed(2).padStart(6));

async function main() {
  if (!existsSync(OUR_CLI)) throw new Error('build first: npm run build:ts');
  const size = Number(values.size);
  const repeat = Number(values.repeat);
  const site = ensureSite(path.join(HERE, '.sites'), { pages: size });
  const { server, origin } = await spawnSiteServer(site.dir);
  const work = mkdtempSync(path.join(tmpdir(), 'linkaudit-rules-cost-'));
  const runs = variants.map(() => []);
  try {
    for (let round = 0; round < repeat; round++) {
      for (const [index, variant] of variants.entries())
        runs[index].push(await measureOnce(origin, variant, work));
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
  report(size, repeat, runs);
}

function report(size, repeat, runs) {
  const what = values.cli ? 'linkaudit command' : `engine alone, node ${NODE_FLAGS.join(' ')}`;
  const load = loadavg().map((n) => n.toFixed(2));
  console.log(`${size} pages, ${what}, median of ${repeat}, load average ${load.join(' ')}`);
  const rows = runs.map((list) => {
    const middle = (key) => median(list.map((run) => run[key] ?? NaN));
    return {
      wallMs: middle('wallMs'),
      cpuMs: middle('cpuMs'),
      mainCpuMs: middle('mainCpuMs'),
      peakRssMb: middle('peakRssMb'),
    };
  });
  // The command is measured from outside: wall time and peak RSS only.
  const cpu = (row) =>
    values.cli ? '' : `CPU ${seconds(row.cpuMs)} s, crawl thread ${seconds(row.mainCpuMs)} s, `;
  for (const [index, row] of rows.entries()) {
    const all = runs[index].map((run) => seconds(values.cli ? run.wallMs : run.cpuMs).trim());
    console.log(
      `  ${variants[index].name.padEnd(10)} ${cpu(row)}wall ${seconds(row.wallMs)} s, ` +
        `peak RSS ${Math.round(row.peakRssMb)} MB  (runs: ${all.join(', ')})`,
    );
  }
  const [off, on] = rows;
  const ratio = (key) => `×${(on[key] / off[key]).toFixed(2)}`;
  const cpuRatios = values.cli ? '' : `CPU ${ratio('cpuMs')}, crawl thread ${ratio('mainCpuMs')}, `;
  console.log(
    `  all rules / rules off: ${cpuRatios}wall ${ratio('wallMs')}, peak RSS ${ratio('peakRssMb')}`,
  );
  // Each round's two runs ran back to back, so their ratio is the least touched by a machine
  // whose speed drifts from minute to minute; the median of those is the steadier figure.
  const roundRatios = runs[0].map((offRun, round) => runs[1][round].wallMs / offRun.wallMs);
  console.log(
    `  wall ratio per round: ${roundRatios.map((r) => r.toFixed(2)).join(', ')}; ` +
      `median ×${median(roundRatios).toFixed(2)}`,
  );
}

if (values.child) await engineRun(JSON.parse(values.child));
else await main();
