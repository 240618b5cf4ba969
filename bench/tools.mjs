// The three measured tools: how to start each one and how to read what it found.
//
// Each tool is started as `node <script> …` directly (no npx or shell wrapper), so the process
// whose RSS is measured is the tool itself. Each reads its own output file after the run and
// returns { urls, broken } where `broken` holds the URLs the tool reported broken, as written.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(import.meta.dirname, '..');
export const OUR_CLI = path.join(REPO, 'packages/cli/dist/launch.js');
// The `linkaudit` command as users run it: a shell script that execs Node with its memory flags.
export const OUR_BIN = path.join(REPO, 'packages/cli/bin/linkaudit');

// linkinator's CLI script, found from its package.json "bin" (its "exports" hide package.json
// from require.resolve, so walk up from the resolved entry point instead).
export function linkinatorCli() {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('linkinator')));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      const bin = pkg.bin?.linkinator ?? pkg.bin;
      // (its build/ folder holds a copy of package.json whose bin path does not resolve there)
      if (pkg.name === 'linkinator' && typeof bin === 'string' && existsSync(path.join(dir, bin))) {
        return path.join(dir, bin);
      }
    }
    dir = path.dirname(dir);
  }
  throw new Error('linkinator is not installed (npm ci)');
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

// Our CLI: full crawl of the host, default settings, 50 concurrent requests. Exit 1 only means
// "broken links found", which this site always has.
const ours = {
  name: 'ours',
  label: 'linkaudit CLI (ours)',
  unavailable: () =>
    existsSync(OUR_CLI) ? null : `${path.relative(REPO, OUR_CLI)} not found (CLI not built yet)`,
  executable: '/bin/sh',
  command: (ctx) => [
    OUR_BIN,
    'scan',
    `${ctx.origin}/`,
    '--depth',
    'site',
    '--concurrency',
    String(ctx.concurrency),
    '--format',
    'json',
    '--output',
    ctx.outFile,
  ],
  okExitCodes: [0, 1],
  read(ctx) {
    const report = readJson(ctx.outFile);
    return {
      urls: report.summary?.uniqueLinks ?? null,
      pagesCrawled: report.summary?.pages ?? null,
      broken: (report.broken ?? []).map((entry) => entry.url),
      status: report.status,
    };
  },
};

// The plain fetch-and-parse loop over the URL list of truth.json.
const plain = {
  name: 'plain',
  label: 'plain undici + htmlparser2 loop',
  unavailable: () => null,
  command: (ctx) => [
    path.join(import.meta.dirname, 'plain-loop.mjs'),
    '--origin',
    ctx.origin,
    '--truth',
    ctx.truthFile,
    '--concurrency',
    String(ctx.concurrency),
    '--out',
    ctx.outFile,
  ],
  okExitCodes: [0],
  read(ctx) {
    const result = readJson(ctx.outFile);
    return {
      urls: result.fetched,
      pagesCrawled: result.htmlPages,
      broken: result.broken,
      errors: result.errors.length,
    };
  },
  // It fetches each URL once without following redirects, so it cannot know that a redirect
  // ends at a missing page: compare it only with the URLs that answer 4xx themselves.
  expectsRedirectedBroken: false,
};

// linkinator 8 from npm: recursive crawl, JSON on stdout. Its JSON lists every checked URL once
// (plus one more entry per extra parent of a broken one).
const linkinator = {
  name: 'linkinator',
  label: 'linkinator 8 (npm)',
  unavailable: () => null,
  command: (ctx) => [
    linkinatorCli(),
    `${ctx.origin}/`,
    '--recurse',
    '--concurrency',
    String(ctx.concurrency),
    '--format',
    'json',
  ],
  stdoutIsOutput: true,
  okExitCodes: [0, 1],
  read(ctx) {
    const { links } = readJson(ctx.outFile);
    return {
      urls: new Set(links.map((link) => link.url)).size,
      broken: links.filter((link) => link.state === 'BROKEN').map((link) => link.url),
    };
  },
};

export const TOOLS = { ours, plain, linkinator };
