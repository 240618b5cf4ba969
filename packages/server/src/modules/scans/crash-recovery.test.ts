// Crash recovery (issue 21): a server process killed with SIGKILL mid-scan and started again
// under the same WORKER_ID takes its scan back at once (not when the lease runs out), resumes it
// from what it had written without fetching those URLs (pages included) again, and ends with the very results of
// a scan that was never interrupted. Real `linkaudit-server` processes (the built dist/main.js).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinishedStatus, ScanStatus } from '@linkaudit/core';
import { htmlPage, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import {
  freePort,
  openTestDatabase,
  testDialects,
  type TestDatabase,
} from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const mainJs = path.join(repoRoot, 'packages/server/dist/main.js');
const pageCount = 60;
const filesPerPage = 5;
/** Long enough that a scan taken back before it ran out was taken back by the restart. */
const leaseSeconds = 120;
const workerId = 'crash-recovery-test';

let site: TestSite;

beforeAll(async () => {
  // The server runs as operators run it: bring dist/ up to date first.
  execFileSync(process.execPath, [
    path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
    '-b',
    path.join(repoRoot, 'tsconfig.build.json'),
  ]);
  site = await startTestSite({}, { fallback: { status: 404, body: 'Not Found' } });
  const pages = Array.from({ length: pageCount }, (_, index) => `/p${index}.html`);
  site.routes['/'] = htmlPage(pages.map((page) => `<a href="${page}">${page}</a>`).join(' '));
  pages.forEach((page, index) => {
    const files = Array.from({ length: filesPerPage }, (_, file) => `/f/${index}-${file}.pdf`);
    const links = [
      ...files,
      '/logo.png',
      `/gone-${index % 7}`,
      '/',
      pages[(index + 1) % pageCount],
    ];
    site.routes[page] = {
      delayMs: 10,
      headers: { 'content-type': 'text/html' },
      body: htmlPage(links.map((link) => `<a href="${link}">x</a>`).join('\n')),
    };
    for (const file of files)
      site.routes[file] = {
        delayMs: 30,
        headers: { 'content-type': 'application/pdf' },
        body: 'pdf',
      };
  });
  site.routes['/logo.png'] = { headers: { 'content-type': 'image/png' }, body: 'png' };
}, 120_000);

afterAll(() => site?.close());

describe.each(testDialects())('a server killed mid-scan (%s)', (dialect) => {
  let testDatabase: TestDatabase;
  let server: ServerProcess | undefined;
  let api: ApiClient;
  let token: string;
  let environment: NodeJS.ProcessEnv;

  beforeAll(async () => {
    testDatabase = await openTestDatabase(dialect);
    const port = await freePort();
    environment = {
      ...process.env,
      ...testDatabase.environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEB_DIST_DIR: path.join(testDatabase.environment.DATA_DIR, 'no-web-build'),
      WORKER_ID: workerId,
      WORKER_CONCURRENCY: '1',
      SCAN_LEASE_SECONDS: String(leaseSeconds),
      // A scan taken back waits before its next start (issue 36); short here.
      SCAN_RETRY_BACKOFF_MS: '100',
      LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
      SAMPLE_REPORT: '0',
      AUTH_RATE_LIMIT: '1000',
      LOG_LEVEL: 'info',
    };
    server = await startServer(environment);
    api = apiClient(`http://127.0.0.1:${port}`);
    const user = await signUp(api);
    token = user.token;
    await runPlanCommand(testDatabase.database.db, ['set', user.email, 'Enterprise']);
  }, 60_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      process.kill(server.pid, 'SIGTERM');
      await server.exited;
    }
    await testDatabase?.drop();
  });

  it('takes the scan back at once, resumes it without refetching and ends as if never killed', async () => {
    const id = await submitScan();
    // Well into the files (the pages, nearer the start, are crawled first).
    await waitFor(
      () => filesChecked(id),
      (count) => count >= 60,
      30_000,
    );
    const victim = server!;
    process.kill(victim.pid, 'SIGKILL');
    await victim.exited;

    const [killed] = await scanRows(id);
    expect(killed?.status).toBe(ScanStatus.InProgress);
    expect(killed?.lease_owner?.startsWith(`${workerId}:${victim.pid}:`)).toBe(true);
    // What the killed run had checked: its checkpoint.
    const checkpoint = await testDatabase.database.db
      .selectFrom('scan_targets')
      .select(['url', 'state', 'content_type'])
      .where('scan_id', '=', id)
      .execute();
    expect(checkpoint.length).toBeGreaterThan(20);
    // And the pages it had read (the page checkpoint).
    const pagesRead = (
      await testDatabase.database.db
        .selectFrom('scan_page_reads')
        .select('url')
        .where('scan_id', '=', id)
        .execute()
    ).map((row) => new URL(row.url).pathname);
    expect(pagesRead.length).toBeGreaterThan(0);
    const requestsBeforeRestart = site.requests.length;

    const restartedAt = Date.now();
    server = await startServer(environment);
    const taken = await waitFor(
      async () => (await scanRows(id))[0],
      (row) => row?.lease_owner?.includes(`:${server!.pid}:`) ?? false,
      15_000,
    );
    expect(Date.now() - restartedAt).toBeLessThan((leaseSeconds * 1000) / 4);
    expect(taken?.attempts).toBe(2);
    const [resumed] = await waitFor(
      () => scanRows(id),
      ([row]) => row !== undefined && isFinishedStatus(row.status),
      60_000,
    );
    expect(resumed).toMatchObject({ status: ScanStatus.Complete, attempts: 2 });

    // Nothing the killed run had checked was fetched again, but the pages it must read anew.
    const fetchedAgain = site.requests.slice(requestsBeforeRestart).map((request) => request.path);
    const notPages = checkpoint.filter((target) => !target.content_type?.startsWith('text/html'));
    expect(notPages.length).toBeGreaterThan(10);
    const refetched = notPages.filter((target) =>
      fetchedAgain.includes(new URL(target.url).pathname),
    );
    expect(refetched.map((target) => target.url)).toEqual([]);
    // No page read before the kill is read again; each of the others is read once.
    const pagesFetched = fetchedAgain.filter((path) => path === '/' || /^\/p\d+\.html$/.test(path));
    expect(pagesFetched.filter((path) => pagesRead.includes(path))).toEqual([]);
    expect(pagesFetched.length).toBe(new Set(pagesFetched).size);
    expect(pagesRead.length + pagesFetched.length).toBe(pageCount + 1);
    // The checkpoint is gone once the scan is finished.
    const leftOver = await testDatabase.database.db
      .selectFrom('scan_page_reads')
      .select('url')
      .where('scan_id', '=', id)
      .execute();
    expect(leftOver).toEqual([]);

    // The same scan never interrupted: the same rows and counts.
    const through = await submitScan();
    const [finished] = await waitFor(
      () => scanRows(through),
      ([row]) => row !== undefined && isFinishedStatus(row.status),
      60_000,
    );
    expect(finished?.status).toBe(ScanStatus.Complete);
    const { id: _a, attempts: _b, lease_owner: _c, ...resumedTotals } = resumed!;
    const { id: _d, attempts: _e, lease_owner: _f, ...throughTotals } = finished!;
    expect(resumedTotals).toEqual(throughTotals);
    expect(resumedTotals.unique_links).toBe(1 + pageCount * (filesPerPage + 1) + 1 + 7);
    expect(await linkRows(id)).toEqual(await linkRows(through));
    expect(await targetRows(id)).toEqual(await targetRows(through));
    expect(await pageRows(id)).toEqual(await pageRows(through));
    expect(summaryOf(await summaryJson(id))).toEqual(summaryOf(await summaryJson(through)));
  }, 180_000);

  async function submitScan(): Promise<string> {
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: { url: site.url('/'), scanDepth: 3, maxThreadCount: 2, maxLinkAmount: 5000 },
      },
      token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return String(created.body.id);
  }

  function scanRows(id: string) {
    return testDatabase.database.db
      .selectFrom('scans')
      .select([
        'id',
        'status',
        'attempts',
        'lease_owner',
        'total_links',
        'unique_links',
        'bad_links',
        'unique_bad_links',
        'num_pages',
        'status_code',
      ])
      .where('id', '=', id)
      .execute();
  }

  async function filesChecked(id: string): Promise<number> {
    const row = await testDatabase.database.db
      .selectFrom('scan_targets')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('scan_id', '=', id)
      .where('content_type', '=', 'application/pdf')
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Each link occurrence: its page, where it is on it, its target and that target's outcome. */
  async function linkRows(id: string): Promise<string[]> {
    const rows = await testDatabase.database.db
      .selectFrom('scan_links as l')
      .innerJoin('scan_pages as p', (join) =>
        join.onRef('p.scan_id', '=', 'l.scan_id').onRef('p.id', '=', 'l.page_id'),
      )
      .innerJoin('scan_targets as t', (join) =>
        join.onRef('t.scan_id', '=', 'l.scan_id').onRef('t.id', '=', 'l.target_id'),
      )
      .select(['p.url as page', 'l.target', 'l.line', 'l.col', 't.state', 't.status_code'])
      .where('l.scan_id', '=', id)
      .execute();
    return rows.map((row) => JSON.stringify(row)).sort();
  }

  async function targetRows(id: string): Promise<string[]> {
    const rows = await testDatabase.database.db
      .selectFrom('scan_targets')
      .select(['url', 'state', 'reason', 'status_code', 'content_type', 'reference_count'])
      .where('scan_id', '=', id)
      .execute();
    return rows.map((row) => JSON.stringify(row)).sort();
  }

  async function pageRows(id: string): Promise<string[]> {
    const rows = await testDatabase.database.db
      .selectFrom('scan_pages')
      .select(['url', 'status_code', 'depth', 'html_bytes'])
      .where('scan_id', '=', id)
      .execute();
    return rows.map((row) => JSON.stringify(row)).sort();
  }

  async function summaryJson(id: string): Promise<string> {
    const row = await testDatabase.database.db
      .selectFrom('scans')
      .select('summary_json')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.summary_json ?? '{}';
  }
});

/** The engine's summary without what differs between any two runs (time taken). */
function summaryOf(json: string): unknown {
  const { durationMs: _duration, ...summary } = JSON.parse(json) as Record<string, unknown>;
  return summary;
}

async function waitFor<T>(
  read: () => Promise<T>,
  until: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface ServerProcess {
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
}

/** `node dist/main.js` (role all), resolved once it listens. */
function startServer(environment: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, [mainJs], {
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('LinkAudit (all) on') && child.pid !== undefined) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid, exited });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${output}`));
    });
  });
}
