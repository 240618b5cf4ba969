// Scale-out on PostgreSQL (issue 7): real `linkaudit-server --role worker` processes (the built
// dist/main.js) share one database schema with an api-only server. Skipped without
// TEST_DATABASE_URL, since SQLite is one process by design.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinishedStatus, ScanStatus } from '@linkaudit/core';
import { linksPage, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const mainJs = path.join(repoRoot, 'packages/server/dist/main.js');
const leaseSeconds = 3;
const scanCount = 40;
const slowLinks = 24;

if (!process.env.TEST_DATABASE_URL) {
  console.warn(
    'TEST_DATABASE_URL is not set: the scale-out test (two worker processes on PostgreSQL) is skipped.',
  );
}

interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two worker processes on PostgreSQL', () => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let token: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // The workers run the built server, as operators do: bring dist/ up to date first.
    execFileSync(process.execPath, [
      path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
      '-b',
      path.join(repoRoot, 'tsconfig.build.json'),
    ]);
    site = await startTestSite({}, { fallback: { status: 404, body: 'Not Found' } });
    for (let index = 0; index < scanCount; index++) {
      site.routes[`/s${index}/`] = linksPage([`/s${index}/a`, `/s${index}/b`]);
      site.routes[`/s${index}/a`] = { delayMs: 100, body: 'a' };
      site.routes[`/s${index}/b`] = { delayMs: 100, body: 'b' };
    }
    site.routes['/slow/'] = linksPage(
      Array.from({ length: slowLinks }, (_, index) => `/slow/${index}`),
    );
    for (let index = 0; index < slowLinks; index++)
      site.routes[`/slow/${index}`] = { delayMs: 300, body: 'slow' };

    const environment = {
      WORKER_CONCURRENCY: '0',
      SCAN_LEASE_SECONDS: String(leaseSeconds),
      // A scan whose worker died waits before its next start (issue 36); short here.
      SCAN_RETRY_BACKOFF_MS: '100',
      LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
    };
    server = await startTestServer('postgres', environment);
    api = apiClient(server.baseUrl);
    const user = await signUp(api);
    token = user.token;
    await runPlanCommand(server.database.db, ['set', user.email, 'Enterprise']);
    const workerEnvironment = {
      ...process.env,
      ...environment,
      WORKER_CONCURRENCY: '2',
      DATABASE_URL: server.config.databaseUrl ?? '',
      DATA_DIR: server.dataDir,
      LOG_LEVEL: 'info',
    };
    for (let index = 0; index < 2; index++) workers.push(await startWorker(workerEnvironment));
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) {
        process.kill(worker.pid, 'SIGTERM');
        await worker.exited;
      }
    }
    await server?.stop();
    await site?.close();
  });

  it('drains 40 queued scans: each claimed once, none lost, both processes at work', async () => {
    const ids: string[] = [];
    for (let index = 0; index < scanCount; index++) {
      const created = await api.post(
        '/api/ScanApi/',
        { scanSettings: { url: site.url(`/s${index}/`), scanDepth: 2, maxThreadCount: 2 } },
        token,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(String(created.body.id));
    }
    // Watch the leases while they drain: which worker process holds which scan.
    const holders = new Map<string, Set<string>>();
    const deadline = Date.now() + 40_000;
    for (;;) {
      const rows = await scanRows(ids);
      for (const row of rows) {
        if (!row.lease_owner) continue;
        const pid = row.lease_owner.split(':')[1] ?? '';
        holders.set(row.id, (holders.get(row.id) ?? new Set()).add(pid));
      }
      if (rows.every((row) => row.status === ScanStatus.Complete)) break;
      if (Date.now() > deadline) throw new Error(`not drained: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    const rows = await scanRows(ids);
    expect(rows).toHaveLength(scanCount);
    for (const row of rows) {
      expect(row, row.id).toMatchObject({ status: ScanStatus.Complete, attempts: 1 });
      expect(row.unique_links, row.id).toBe(3);
    }
    for (let index = 0; index < scanCount; index++) {
      expect(site.requestsFor(`/s${index}/`, 'GET'), `/s${index}/`).toHaveLength(1);
    }
    for (const pids of holders.values()) expect(pids.size).toBe(1);
    const pids = new Set([...holders.values()].flatMap((set) => [...set]));
    expect([...pids].sort()).toEqual(workers.map((worker) => String(worker.pid)).sort());
  }, 60_000);

  it('finishes the scan of a worker killed mid-scan once its lease expires', async () => {
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/slow/'), scanDepth: 2, maxThreadCount: 2 } },
      token,
    );
    const id = String(created.body.id);
    const running = await waitForRow(id, (row) => row.lease_owner !== null, 10_000);
    const victim = workers.find((worker) => running.lease_owner?.includes(`:${worker.pid}:`));
    const survivor = workers.find((worker) => worker !== victim);
    if (!victim || !survivor) throw new Error(`no worker owns ${JSON.stringify(running)}`);
    // Let it get some way in, then kill it without a chance to hand the scan back.
    await new Promise((resolve) => setTimeout(resolve, 800));
    process.kill(victim.pid, 'SIGKILL');
    await victim.exited;
    const partial = await scanRows([id]);
    expect(partial[0]?.status).toBe(ScanStatus.InProgress);
    // Pages the killed run had read are in its checkpoint: the next run takes them in unfetched.
    const checkpoint = await server.database.db
      .selectFrom('scan_page_reads')
      .select('url')
      .where('scan_id', '=', id)
      .execute();
    const slowPageCheckpointed = checkpoint.some((row) => new URL(row.url).pathname === '/slow/');

    const taken = await waitForRow(
      id,
      (row) => row.lease_owner?.includes(`:${survivor.pid}:`) ?? false,
      leaseSeconds * 1000 + 8_000,
    );
    expect(taken.attempts).toBe(2);
    const done = await waitForRow(id, (row) => isFinishedStatus(row.status), 20_000);
    expect(done).toMatchObject({
      status: ScanStatus.Complete,
      attempts: 2,
      unique_links: slowLinks + 1,
      total_links: slowLinks,
      lease_owner: null,
    });
    // The second run wrote no row twice: one row per linked URL, one per link.
    const db = server.database.db;
    const targets = db.selectFrom('scan_targets').select('url').where('scan_id', '=', id);
    expect(await targets.execute()).toHaveLength(slowLinks);
    const links = db.selectFrom('scan_links').select('id').where('scan_id', '=', id);
    expect(await links.execute()).toHaveLength(slowLinks);
    expect(site.requestsFor('/slow/', 'GET')).toHaveLength(slowPageCheckpointed ? 1 : 2);
  }, 60_000);

  function scanRows(ids: string[]) {
    return server.database.db
      .selectFrom('scans')
      .select(['id', 'status', 'attempts', 'lease_owner', 'unique_links', 'total_links'])
      .where('id', 'in', ids)
      .execute();
  }

  async function waitForRow(
    id: string,
    until: (row: Awaited<ReturnType<typeof scanRows>>[number]) => boolean,
    timeoutMs: number,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await scanRows([id]);
      if (row && until(row)) return row;
      if (Date.now() > deadline) throw new Error(`scan ${id} still ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});

/** `node dist/main.js --role worker`, resolved once it logs that it is draining the queue. */
function startWorker(environment: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [mainJs, '--role', 'worker'], {
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('LinkAudit worker') && child.pid !== undefined) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid, exited });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}):\n${output}`));
    });
  });
}
