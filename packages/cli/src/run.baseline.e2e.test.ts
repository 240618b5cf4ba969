import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// The CI baseline (issue 27) against a real site on 127.0.0.1 that changes between runs: a run
// with --baseline lists, and fails on, only the problems the baseline does not know.

let home: string[];
const page = (lines: string[]) => ['<!doctype html>', '<title>Home</title>', ...lines].join('\n');
const initialHome = ['<a href="/missing">Old news</a>', '<img src="/error" alt="Logo">'];

let server: Server;
let base: string;
let folder: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(home));
    } else if (request.url === '/error') {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('oops');
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  folder = await mkdtemp(path.join(tmpdir(), 'linkaudit-baseline-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});
beforeEach(() => {
  home = [...initialHome];
});

async function run(...options: string[]) {
  const io = fakeIo();
  const code = await main(['scan', `${base}/`, '--retries', '0', '--quiet', ...options], io);
  return { code, stdout: io.stdout.text, stderr: io.stderr.text };
}

describe('linkaudit scan --baseline', () => {
  it('writes a baseline, then passes while nothing new breaks and fails on a new problem', async () => {
    const file = path.join(folder, 'baseline.json');
    const first = await run('--write-baseline', file);
    expect(first.code).toBe(1);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      tool: 'linkaudit',
      baselineVersion: 1,
      startUrl: `${base}/`,
      problems: [`link ${base}/error`, `link ${base}/missing`],
    });

    const same = await run('--baseline', file);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Baseline    2 known problems not listed, 0 new problems');
    expect(same.stdout).not.toContain(`${base}/missing`);
    // Known broken links remain: not "No broken links." (issue 37).
    expect(same.stdout).not.toContain('No broken links.');
    expect(same.stdout).toContain('No new broken links; 2 known problems remain (baseline).');

    home.push('<a href="/gone">Gone</a>');
    const worse = await run('--baseline', file, '--format', 'json');
    expect(worse.code).toBe(1);
    const report = JSON.parse(worse.stdout) as { broken: { url: string }[]; baseline: object };
    expect(report.broken.map((item) => item.url)).toEqual([`${base}/gone`]);
    expect(report.baseline).toEqual({ known: 2, fixed: [] });

    // A problem fixed since the baseline is gone from the lists and named as fixed: still exit 0.
    home = ['<img src="/error" alt="Logo">'];
    const better = await run('--baseline', file);
    expect(better.code).toBe(0);
    expect(better.stdout).toContain(
      'Baseline    1 known problem not listed, 0 new problems, 1 fixed since the baseline',
    );
    expect(better.stdout).toContain(`Fixed since the baseline (1)\n  link ${base}/missing`);
    const json = JSON.parse((await run('--baseline', file, '--format', 'json')).stdout) as {
      baseline: object;
    };
    expect(json.baseline).toEqual({ known: 1, fixed: [`link ${base}/missing`] });
  });

  it('refuses a baseline it cannot read or that is not one, before scanning (exit 2)', async () => {
    const missing = await run('--baseline', path.join(folder, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the baseline');
    const other = path.join(folder, 'other.json');
    await writeFile(other, JSON.stringify({ problems: 'x' }));
    const wrong = await run('--baseline', other);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('is not a linkaudit baseline');
    expect((await run('--baseline', '')).code).toBe(2);
  });

  it('gives SARIF results fingerprints that survive a page being edited', async () => {
    type Sarif = {
      runs: {
        results: {
          partialFingerprints: Record<string, string>;
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    const results = async () =>
      (JSON.parse((await run('--format', 'sarif')).stdout) as Sarif).runs[0]!.results;
    const before = await results();
    home.unshift('<p>A new paragraph above the links</p>', '<p>and another</p>');
    const after = await results();
    const lines = (list: typeof before) =>
      list.map((result) => result.locations[0]!.physicalLocation.region.startLine);
    expect(lines(after)).toEqual(lines(before).map((line) => line + 2));
    const prints = (list: typeof before) =>
      list.map((result) => result.partialFingerprints['linkaudit/v1']);
    expect(prints(after)).toEqual(prints(before));
    expect(new Set(prints(before)).size).toBe(before.length);
    expect(prints(before).every((print) => /^[0-9a-f]{32}$/.test(print ?? ''))).toBe(true);
  });
});
