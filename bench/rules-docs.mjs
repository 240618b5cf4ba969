// What the quality rules cost on a real documentation site (issue 34: all rules within ×2 of the
// crawl's CPU). bench/rules-cost.mjs measures the generated site, whose pages are small and
// alike; real documentation has pages of hundreds of kilobytes of prose, tables and links, where
// a rule's cost per character or per element pair shows. The `linkaudit` command scans an
// installed Debian documentation site (served on 127.0.0.1 as nginx serves it) with no rules and
// with `--rules all`, alternating, and each run's CPU time (user + system, the whole process
// tree), wall time and peak RSS are measured from outside (measure.mjs).
//
//   npm run build:ts && node bench/rules-docs.mjs [--site vim] [--repeat 3] [--load 0]
//                                                 [--only all] [--keep DIR]
//
// Sites: `vim` (vim-doc: Vim's help, 150 pages of up to 2 MB in <pre>) or any corpus site
// (corpus/sites.mjs, with its faults); install the Debian package first.
// --load N     runs N busy-loop processes (nice 0) for the whole bench: a machine whose other
//              work wants every core, the case where a low-priority rule thread starved
//              The scans then run in the bench's session, so that the loops compete with their
//              threads in one scheduler group (Linux autogroups), as a server's scan processes
//              compete with the rest of the server.
// --pin CPU   runs the scans and the busy loops on that one CPU only (taskset): the scan's threads
//              then share one core with the loops, whatever other work the machine has
// --only VARIANT  measures one variant (`off` or `all`) only
// --keep DIR   keeps each variant's JSON report (DIR/<site>-<variant>.json, the last run's), to
//              compare the findings of two builds (port and duration left out)
// --baseline BIN  also runs another build's `linkaudit` (its packages/cli/bin/linkaudit) with
//              all rules, in the same rounds: before and after a change under the same load
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { filesWithFaults, siteNamed } from '../corpus/sites.mjs';
import { SiteFiles, serveSite } from '../corpus/static-site.mjs';
import { killAllChildren, runMeasured, trackChild } from './measure.mjs';
import { OUR_BIN, OUR_CLI } from './tools.mjs';

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'vim' },
    repeat: { type: 'string', default: '3' },
    load: { type: 'string', default: '0' },
    pin: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'string' },
    baseline: { type: 'string' },
    timeout: { type: 'string', default: '1800' },
  },
});

/** Documentation sites beyond the corpus, read as installed (no faults). */
const extraSites = {
  vim: { package: 'vim-doc', installed: '/usr/share/doc/vim/html', start: '/index.html' },
};

const variants = [
  { name: 'off', label: 'rules off', flags: [], bin: OUR_BIN },
  { name: 'all', label: 'all rules', flags: ['--rules', 'all'], bin: OUR_BIN },
  ...(values.baseline
    ? [{ name: 'baseline', label: 'baseline', flags: ['--rules', 'all'], bin: values.baseline }]
    : []),
].filter((variant) => !values.only || variant.name === values.only);

function siteFiles(name) {
  const extra = extraSites[name];
  const site = extra ?? siteNamed(name);
  if (!existsSync(site.installed))
    throw new Error(`${name}: install its Debian package first (apt-get install ${site.package})`);
  const files = extra ? new SiteFiles(site.installed) : filesWithFaults(site, site.installed);
  return { files, start: site.start };
}

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function scanArgs(url, origin, variant, outFile) {
  // The whole site, links to other hosts left out (no network here, and not what is measured).
  return [
    ...[variant.bin, 'scan', url, '--depth', 'site', '--max-depth', '1000', '-q'],
    ...['--max-errors', '1000000', '--exclude', `regex:^(?!${escapeRegex(origin)}/)`],
    ...[...variant.flags, '--format', 'json', '--output', outFile],
  ];
}

/** A command line, run on the --pin CPU when one is given. */
const pinned = (command, args) =>
  values.pin ? ['taskset', ['-c', values.pin, command, ...args]] : [command, args];

/** N processes that spin at normal priority until killed. */
function startLoad(count) {
  const spin = 'for(;;){}';
  return Array.from({ length: count }, () =>
    trackChild(spawn(...pinned(process.execPath, ['-e', spin]), { stdio: 'ignore' })),
  );
}

async function measure(url, origin, variant, work) {
  const outFile = path.join(work, `${variant.name}.json`);
  const run = await runMeasured(...pinned('/bin/sh', scanArgs(url, origin, variant, outFile)), {
    cwd: work,
    env: process.env,
    timeoutMs: Number(values.timeout) * 1000,
    stdoutFile: path.join(work, 'stdout.txt'),
    stderrFile: path.join(work, 'stderr.txt'),
    ownSession: Number(values.load) === 0,
  });
  if (run.timedOut || ![0, 1].includes(run.exitCode))
    throw new Error(`linkaudit ${variant.name}: exit ${run.exitCode}, timed out ${run.timedOut}`);
  if (values.keep) {
    mkdirSync(values.keep, { recursive: true });
    // The site's port and the scan's duration change from run to run: without them, two
    // builds' reports compare as files (`cmp a/vim-all.json b/vim-all.json`).
    const report = readFileSync(outFile, 'utf8')
      .replaceAll(origin, 'http://127.0.0.1:PORT')
      .replace(/"durationMs": \d+/, '"durationMs": 0');
    writeFileSync(path.join(values.keep, `${values.site}-${variant.name}.json`), report);
  }
  return run;
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const s = (ms) => (ms / 1000).toFixed(2);

function report(runs) {
  const load = loadavg().map((n) => n.toFixed(2));
  console.log(
    `${values.site}, linkaudit command, median of ${values.repeat}, ${values.load} busy loops` +
      `${values.pin ? ` on CPU ${values.pin} with the scans` : ''}, ` +
      `load average ${load.join(' ')}`,
  );
  const rows = variants.map((variant, index) => {
    const list = runs[index];
    const row = {
      cpuMs: median(list.map((run) => run.cpuMs)),
      wallMs: median(list.map((run) => run.wallMs)),
      peakRssMb: median(list.map((run) => run.peakRssMb)),
    };
    const each = list.map((run) => `${s(run.cpuMs)}/${s(run.wallMs)}`).join(', ');
    console.log(
      `  ${variant.label.padEnd(10)} CPU ${s(row.cpuMs)} s, wall ${s(row.wallMs)} s, ` +
        `peak RSS ${Math.round(row.peakRssMb)} MB  (runs CPU/wall s: ${each})`,
    );
    return row;
  });
  if (variants[0]?.name !== 'off') return;
  const ratio = (index, key) => `×${(rows[index][key] / rows[0][key]).toFixed(2)}`;
  for (let index = 1; index < rows.length; index++) {
    const rounds = runs[0].map((offRun, round) => runs[index][round].cpuMs / offRun.cpuMs);
    console.log(
      `  ${variants[index].label} / rules off: CPU ${ratio(index, 'cpuMs')}, ` +
        `wall ${ratio(index, 'wallMs')}, peak RSS ${ratio(index, 'peakRssMb')}; ` +
        `CPU ratio per round ${rounds.map((r) => r.toFixed(2)).join(', ')}`,
    );
  }
}

async function main() {
  if (!existsSync(OUR_CLI)) throw new Error('build first: npm run build:ts');
  const { files, start } = siteFiles(values.site);
  const site = await serveSite(files);
  const work = mkdtempSync(path.join(tmpdir(), 'linkaudit-rules-docs-'));
  const loaders = startLoad(Number(values.load));
  const runs = variants.map(() => []);
  try {
    for (let round = 0; round < Number(values.repeat); round++) {
      for (const [index, variant] of variants.entries())
        runs[index].push(await measure(site.url(start), site.origin, variant, work));
    }
  } finally {
    for (const loader of loaders) loader.kill('SIGKILL');
    killAllChildren();
    await site.close();
    rmSync(work, { recursive: true, force: true });
  }
  report(runs);
}

await main();
