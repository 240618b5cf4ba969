// A scan's body is parsed once, at the edge (issue 36): the route validates it and hands the
// typed submission on, to the scans module or, with a schedule, to the schedules module. Before,
// the body was parsed again by schedules.submit and by scans.create (route → schedules → scans).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScanRequestSchema, ScanStatus } from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

describe.each(testDialects())('one parse of a scan submission (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
      WORKER_CONCURRENCY: '0',
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(() => server.stop());
  afterEach(() => vi.restoreAllMocks());

  /** Counts every parse of the submission schema: zod runs each one through `_zod.run`. */
  function countParses(): { count: () => number } {
    const run = vi.spyOn(createScanRequestSchema._zod, 'run');
    return { count: () => run.mock.calls.length };
  }

  it('parses a scan once, and one with a schedule once', async () => {
    const { email, token } = await signUp(api, 'submitter');
    await runPlanCommand(server.database.db, ['set', email, 'Basic']);

    const plain = countParses();
    const scan = await api.post('/api/ScanApi/', { url: 'http://127.0.0.1:9/a' }, token);
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    expect(scan.body).toMatchObject({ status: ScanStatus.Queued, url: 'http://127.0.0.1:9/a' });
    expect(plain.count()).toBe(1);
    vi.restoreAllMocks();

    const scheduled = countParses();
    const schedule = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: { url: 'http://127.0.0.1:9/b', scanDepth: 2 },
        enableSchedule: true,
        saveScheduleOnly: true,
      },
      token,
    );
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(200);
    expect(schedule.body).toMatchObject({ status: ScanStatus.ScheduledScanCreated });
    expect(scheduled.count()).toBe(1);
  });
});
