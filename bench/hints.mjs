// The speed hints of the scan form (SPEC §2): what turning an option on or off costs our crawl,
// measured with the `linkaudit` command on a generated site. Median of --repeat runs each.
//
//   node bench/hints.mjs [--size 10000] [--repeat 3]     (after `npm run build:ts`)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSite } from './generator.mjs';
import { runMeasured } from './measure.mjs';
import { OUR_BIN } from './tools.mjs';
import { spawnSiteServer } from './site-server-process.mjs';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '10000' }, repeat: { type: 'string', default: '3' } },
});
const size = Number(values.size);
const repeat = Number(values.repeat);

/** Each option as the form shows it: the time with it against the time without. */
const variants = [
  { name: 'defaults (images on, case-insensitive)', flags: [] },
  { name: 'images off', flags: ['--no-images'] },
  { name: 'case-sensitive', flags: ['--case-sensitive'] },
  { name: 'page inclusion', flags: ['--page-inclusion'] },
  { name: 'anchors', flags: ['--anchors'] },
  { name: 'page rank', flags: ['--page-rank'] },
];

async function timeOnce(origin, flags, work) {
  const run = await runMeasured(
    '/bin/sh',
    [
      OUR_BIN,
      'scan',
      `${origin}/`,
      '--depth',
      'site',
      '-q',
      '-f',
      'json',
      '-o',
      path.join(work, 'out.json'),
      ...flags,
    ],
    {
      cwd: work,
      env: process.env,
      timeoutMs: 600_000,
      stdoutFile: path.join(work, 'stdout.txt'),
      stderrFile: path.join(work, 'stderr.txt'),
    },
  );
  if (![0, 1].includes(run.exitCode)) throw new Error(`linkaudit exited with ${run.exitCode}`);
  return run.wallMs;
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

async function main() {
  if (!existsSync(OUR_BIN)) throw new Error('build first: npm run build:ts');
  const site = ensureSite(path.join(import.meta.dirname, '.sites'), { pages: size });
  const { server, origin } = await spawnSiteServer(site.dir);
  const work = mkdtempSync(path.join(tmpdir(), 'linkaudit-hints-'));
  try {
    const rows = [];
    for (const variant of variants) {
      const times = [];
      for (let run = 0; run < repeat; run++)
        times.push(await timeOnce(origin, variant.flags, work));
      rows.push({ ...variant, ms: median(times) });
    }
    const base = rows[0].ms;
    console.log(`${size} pages, median of ${repeat}:`);
    for (const row of rows) {
      const change =
        row === rows[0]
          ? ''
          : `${row.ms >= base ? '+' : ''}${Math.round((row.ms / base - 1) * 100)}%`;
      console.log(
        `  ${row.name.padEnd(40)} ${(row.ms / 1000).toFixed(2).padStart(6)} s  ${change}`,
      );
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
