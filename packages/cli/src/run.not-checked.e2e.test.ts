import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// What a scan leaves unchecked on purpose must reach the CLI user in every format: a site on
// 127.0.0.1 whose home page links into two crawler traps (a calendar decades ahead, a folder
// stacked on itself) and to more files than --max-links lets the scan check.
const files = Array.from({ length: 12 }, (_, index) => `/files/${index}.pdf`);
const home = [
  '<!doctype html><html><head><title>Home</title></head><body>',
  '<a href="/calendar/2099/01/">Next month</a>',
  '<a href="/docs/docs/docs/">Docs</a>',
  ...files.map((file) => `<a href="${file}">file</a>`),
  '</body></html>',
].join('\n');

let server: Server;
let base: string;
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? '/');
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(home);
    } else {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end('pdf');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function scan(format: string): Promise<string> {
  const io = fakeIo();
  const code = await main(
    ['scan', `${base}/`, '--format', format, '--max-links', '5', '--retries', '0', '--quiet'],
    io,
  );
  expect(io.stderr.text).toBe('');
  expect(code).toBe(0);
  return io.stdout.text;
}

const calendar = () => `${base}/calendar/2099/01/`;
const docs = () => `${base}/docs/docs/docs/`;

interface NotCheckedJson {
  url: string;
  cause: string;
  message: string;
  referenceCount: number;
  sources: Array<{ url: string; line: number }>;
}

describe('links the scan did not check on purpose', () => {
  it('are listed in JSON with their cause, message and sources, and never requested', async () => {
    const report = JSON.parse(await scan('json')) as { notChecked: NotCheckedJson[] };
    const byUrl = new Map(report.notChecked.map((entry) => [entry.url, entry]));
    expect(byUrl.get(calendar())).toMatchObject({
      cause: 'crawler-trap',
      message: expect.stringContaining('a calendar date in 2099'),
      referenceCount: 1,
      sources: [{ url: `${base}/`, line: 2 }],
    });
    expect(byUrl.get(docs())).toMatchObject({
      cause: 'crawler-trap',
      message: expect.stringContaining('repeats "docs/" 3 times'),
    });
    const stopped = report.notChecked.filter((entry) => entry.cause === 'limit');
    expect(stopped.length).toBeGreaterThan(0);
    for (const entry of stopped) expect(entry.url).toMatch(/\/files\/\d+\.pdf$/);
    expect(requested).not.toContain('/calendar/2099/01/');
    expect(requested).not.toContain('/docs/docs/docs/');
  });

  it('have a section in the text report that says why each was not checked', async () => {
    const text = await scan('text');
    expect(text).toContain('Not checked on purpose');
    expect(text).toContain(calendar());
    expect(text).toMatch(/Crawler traps \(2\)/);
    expect(text).toMatch(/Not reached: the scan stopped at its limit \(\d+\)/);
  });

  it('are CSV rows of their own state', async () => {
    const rows = (await scan('csv')).trim().split('\r\n');
    const trap = rows.find((row) => row.includes('/calendar/2099/01/'));
    expect(trap).toMatch(/^not-checked,crawler-trap,,/);
    expect(rows.some((row) => row.startsWith('not-checked,limit,,'))).toBe(true);
  });

  it('are skipped JUnit test cases', async () => {
    const xml = await scan('junit');
    expect(xml).toContain(
      `<testcase classname="not-checked.crawler-trap" name="${calendar()}" time="0">`,
    );
    expect(xml).toMatch(/<skipped message="Not followed: a crawler trap \(a calendar date in 2099/);
  });

  it('are SARIF notes', async () => {
    const sarif = JSON.parse(await scan('sarif')) as {
      runs: Array<{
        results: Array<{ ruleId: string; level: string; properties: { url: string } }>;
      }>;
    };
    const trap = sarif.runs[0]!.results.find((result) => result.properties.url === calendar());
    expect(trap).toMatchObject({ ruleId: 'not-checked/crawler-trap', level: 'note' });
  });
});
