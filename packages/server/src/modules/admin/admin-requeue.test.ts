// Requeue and Set-to-Failed of a running scan (issue 24): the running attempt is stopped first,
// so two attempts of one scan never run at once, on SQLite and PostgreSQL. Before the fix the
// second attempt wrote beside the first (`UNIQUE constraint failed: scan_targets`) and the scan
// failed with "Engine Exception: the results could not be saved".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import type { ScanEngine } from '../scans/scan-engine.js';

const pages = 40;
const rounds = 8;

/**
 * A home page linking to `pages - 1` pages, each with 5 files, every answer 60 ms late: with two
 * requests at a time a scan takes seconds, long enough to requeue it mid-scan.
 */
function slowSite(): Record<string, { body: string; delayMs: number }> {
  const routes: Record<string, { body: string; delayMs: number }> = {};
  const home = Array.from({ length: pages - 1 }, (_, page) => `<a href="/p${page + 1}.html">p</a>`);
  for (let page = 0; page < pages; page++) {
    const files = [0, 1, 2, 3, 4].map((file) => `<a href="/f/${page}-${file}.txt">f</a>`).join('');
    const links = page === 0 ? home.join('') + files : files;
    routes[page === 0 ? '/' : `/p${page}.html`] = {
      delayMs: 60,
      body: `<!doctype html><html><head><title>p${page}</title></head><body>${links}</body></html>`,
    };
  }
  return routes;
}

const slowScan = { scanDepth: 3, maxThreadCount: 2 };

/** Wraps the engine: counts the runs of each start URL under way at once, and their peak. */
function engineWatch() {
  const active = new Map<string, number>();
  const watch = { peak: 0, runs: 0 };
  const observe =
    (engine: ScanEngine): ScanEngine =>
    async (settings, run) => {
      const key = settings.url;
      const now = (active.get(key) ?? 0) + 1;
      active.set(key, now);
      watch.peak = Math.max(watch.peak, now);
      watch.runs += 1;
      try {
        return await engine(settings, run);
      } finally {
        active.set(key, (active.get(key) ?? 1) - 1);
      }
    };
  return { watch, observe };
}

describe.each(testDialects())('admin stop of a running scan (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  const { watch, observe } = engineWatch();
  const bossEmail = `boss-requeue-${dialect}@example.com`;

  beforeAll(async () => {
    site = await startTestSite(slowSite(), { fallback: { delayMs: 60, body: 'ok' } });
    server = await startTestServer(
      dialect,
      // Two worker loops: a second attempt had a free loop to run in.
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ADMIN_EMAILS: bossEmail, WORKER_CONCURRENCY: '2' },
      fastEngineOptions,
      undefined,
      observe,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  async function put(path: string, token: string, body?: unknown, contentType?: string) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    };
  }

  async function attempts(id: string) {
    const row = await server.database.db
      .selectFrom('scans')
      .select(['attempts', 'status', 'log_message'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row;
  }

  it('answers an empty or broken body with 400 and modelState, not 500', async () => {
    const boss = await signUp(api, 'boss', bossEmail);
    for (const [body, type] of [
      [undefined, undefined],
      [undefined, 'application/json'],
      [{}, 'application/json'],
      [{ id: '' }, 'application/json'],
    ] as const) {
      const answer = await put('/api/admin/Requeue/', boss.token, body, type);
      expect(answer.status, JSON.stringify({ body, answer })).toBe(400);
      expect(answer.body.modelState).toBeTypeOf('object');
    }
  });

  it(`requeues a running scan ${rounds} times in a row: one attempt at a time, then Complete`, async () => {
    const boss = await signUp(api, 'boss2', `x-${bossEmail}`);
    await server.database.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('email', '=', boss.email)
      .execute();
    const user = await signUp(api);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/'), ...slowScan } },
      user.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);

    for (let round = 0; round < rounds; round++) {
      // Running and writing results: the moment a second attempt used to collide with it.
      await waitForScan(
        api,
        user.token,
        id,
        (scan) => scan.status === ScanStatus.InProgress && scan.uniqueLinks > 0,
        60_000,
      );
      const answer = await put('/api/admin/Requeue/', boss.token, { id }, 'application/json');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      // The stop path: the holder ends its attempt first (8), then the scan is queued again.
      expect(answer.body.status).toBe(ScanStatus.Cancelling);
    }
    const done = await waitForScan(
      api,
      user.token,
      id,
      (scan) => scan.status !== ScanStatus.Cancelling && [1, 2, 3, 4, 10].includes(scan.status),
      120_000,
    );
    expect(done.logMessage).toBeNull();
    expect(done.status).toBe(ScanStatus.Complete);
    // Every page and file counted once: 40 pages + 200 files.
    expect(done.uniqueLinks).toBe(pages + pages * 5);
    expect(watch.peak).toBe(1);
    expect(watch.runs).toBeGreaterThanOrEqual(rounds + 1);
    expect((await attempts(id)).attempts).toBe(1);
  }, 240_000);

  it('sets a running scan to Failed after its attempt stopped, and requeues it to Complete', async () => {
    const boss = await signUp(api, 'boss3', `y-${bossEmail}`);
    await server.database.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('email', '=', boss.email)
      .execute();
    const user = await signUp(api);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/'), ...slowScan } },
      user.token,
    );
    const id = String(created.body.id);
    await waitForScan(
      api,
      user.token,
      id,
      (scan) => scan.status === ScanStatus.InProgress && scan.uniqueLinks > 0,
      60_000,
    );
    const failed = await put(`/api/admin/SetScanStateToFailed/${id}`, boss.token);
    expect(failed.status).toBe(200);
    // Requeued at once, while the failing attempt may still be stopping: it must wait for it.
    const requeued = await put('/api/admin/Requeue/', boss.token, { id }, 'application/json');
    expect(requeued.status).toBe(200);
    const done = await waitForScan(
      api,
      user.token,
      id,
      (scan) => scan.status === ScanStatus.Complete,
      120_000,
    );
    expect(done.uniqueLinks).toBe(pages + pages * 5);
    expect(watch.peak).toBe(1);
  }, 120_000);

  it('keeps a lease when the service clock moves: one attempt, not a re-queued second', async () => {
    const user = await signUp(api);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/'), ...slowScan } },
      user.token,
    );
    const id = String(created.body.id);
    await waitForScan(
      api,
      user.token,
      id,
      (scan) => scan.status === ScanStatus.InProgress && scan.uniqueLinks > 0,
      60_000,
    );
    // Schedules and billing tests move the clock (by hours, days); a lease runs on real time.
    // (An hour: tokens, which follow the service clock, stay valid for a day.)
    server.clock.advance(3600 * 1000);
    const done = await waitForScan(
      api,
      user.token,
      id,
      (scan) => scan.status === ScanStatus.Complete,
      120_000,
    );
    expect(done.uniqueLinks).toBe(pages + pages * 5);
    expect((await attempts(id)).attempts).toBe(1);
  }, 120_000);
});
