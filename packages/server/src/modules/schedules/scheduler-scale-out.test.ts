// Exactly-once firing with two real `linkaudit-server --role scheduler` processes (the built
// dist/main.js) on one PostgreSQL schema (issue 10). Skipped without TEST_DATABASE_URL.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const mainJs = path.join(repoRoot, 'packages/server/dist/main.js');
const scheduleCount = 120;

if (!process.env.TEST_DATABASE_URL) {
  console.warn(
    'TEST_DATABASE_URL is not set: the two-scheduler test (exactly-once firing on PostgreSQL) is skipped.',
  );
}

interface SchedulerProcess {
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
  /** Schedule ids this process logged as fired. */
  fired: string[];
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two scheduler processes on PostgreSQL', () => {
  let server: TestServer;
  const schedulers: SchedulerProcess[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [
      path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
      '-b',
      path.join(repoRoot, 'tsconfig.build.json'),
    ]);
    // No workers anywhere: the runs stay queued, so each fired run is one scan row to count.
    server = await startTestServer('postgres', {
      WORKER_CONCURRENCY: '0',
      LINKAUDIT_ALLOWED_HOSTS: 'example.com',
    });
  }, 120_000);

  afterAll(async () => {
    for (const scheduler of schedulers) {
      if (scheduler.child.exitCode === null && scheduler.child.signalCode === null) {
        process.kill(scheduler.pid, 'SIGTERM');
        await scheduler.exited;
      }
    }
    await server?.stop();
  });

  it(`fires each of ${scheduleCount} due schedules once, whoever wins`, async () => {
    const api = apiClient(server.baseUrl);
    const user = await signUp(api, 'schedulers');
    await runPlanCommand(server.database.db, ['set', user.email, 'Enterprise']);
    for (let index = 0; index < scheduleCount; index++) {
      const created = await api.post(
        '/api/ScanApi/ScheduleScan',
        { scanSettings: { url: `http://example.com/${index}/` }, scheduleSettings: {} },
        user.token,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    const environment = {
      ...process.env,
      DATABASE_URL: server.config.databaseUrl ?? '',
      DATA_DIR: server.dataDir,
      LOG_LEVEL: 'info',
      SCHEDULER_INTERVAL_SECONDS: '1',
      LINKAUDIT_ALLOWED_HOSTS: 'example.com',
    };
    for (let index = 0; index < 2; index++) schedulers.push(await startScheduler(environment));
    // All due at once, while both processes are looking every second.
    await server.database.db
      .updateTable('schedules')
      .set({ next_run_at: new Date(Date.now() - 1000) })
      .execute();

    const db = server.database.db;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const waiting = await db
        .selectFrom('schedules')
        .select('id')
        .where('run_count', '=', 0)
        .execute();
      if (waiting.length === 0) break;
      if (Date.now() > deadline) throw new Error(`${waiting.length} schedules never fired`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Two more ticks of each process, to give a second firing every chance to happen.
    await new Promise((resolve) => setTimeout(resolve, 2500));

    const schedules = await db.selectFrom('schedules').select(['id', 'run_count']).execute();
    expect(schedules).toHaveLength(scheduleCount);
    for (const schedule of schedules) expect(schedule.run_count, schedule.id).toBe(1);
    const runs = await db
      .selectFrom('scans')
      .select('source_schedule_id')
      .where('source_schedule_id', 'is not', null)
      .execute();
    expect(runs).toHaveLength(scheduleCount);
    expect(new Set(runs.map((run) => run.source_schedule_id)).size).toBe(scheduleCount);

    const [first, second] = schedulers.map((scheduler) => new Set(scheduler.fired));
    expect((first?.size ?? 0) + (second?.size ?? 0)).toBe(scheduleCount);
    for (const id of first ?? []) expect(second?.has(id), id).toBe(false);
    console.info(`fired by each scheduler process: ${first?.size}, ${second?.size}`);
  }, 60_000);
});

/** `node dist/main.js --role scheduler`, resolved once it says it is running. */
function startScheduler(environment: NodeJS.ProcessEnv): Promise<SchedulerProcess> {
  const child = spawn(process.execPath, [mainJs, '--role', 'scheduler'], {
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const fired: string[] = [];
  let output = '';
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    for (const match of chunk.toString().matchAll(/"scheduleId":"([^"]+)","kind":"queued"/g)) {
      if (match[1]) fired.push(match[1]);
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`scheduler did not start:\n${output}`)),
      20_000,
    );
    const check = setInterval(() => {
      if (output.includes('LinkAudit scheduler') && child.pid !== undefined) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ child, pid: child.pid, exited, fired });
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`scheduler exited (${code}):\n${output}`));
    });
  });
}
