// Issue 36: one user's queue must not starve the others. Scans of one user run at most their
// plan's cap at once, users of one priority take turns, and a scan the engine broke off is
// retried after a backoff, a bounded number of times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus, type CreateScanResponse } from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { endUnfinishedScans, signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import type { ScanEngine } from './scan-engine.js';

/** Watches the engine: which scan started when, how many of each user's run, held at a gate. */
class EngineWatch {
  readonly started: string[] = [];
  readonly startTimes = new Map<string, number[]>();
  readonly running = new Map<string, number>();
  readonly mostRunning = new Map<string, number>();
  /** Paths whose runs throw (an engine exception) this many more times. */
  readonly failures = new Map<string, number>();
  readonly #gates = new Map<string, { passed: Promise<void>; pass: () => void }>();
  #allOpen = false;

  /** Lets the held run of `path` go on. */
  release(path: string): void {
    this.#gate(path).pass();
  }

  /** Lets every run go on, now and from now on. */
  open(): void {
    this.#allOpen = true;
    for (const gate of this.#gates.values()) gate.pass();
  }

  #gate(path: string): { passed: Promise<void>; pass: () => void } {
    let gate = this.#gates.get(path);
    if (!gate) {
      let pass = (): void => undefined;
      const passed = new Promise<void>((resolve) => (pass = resolve));
      gate = { passed, pass };
      this.#gates.set(path, gate);
    }
    return gate;
  }

  wrap = (engine: ScanEngine): ScanEngine => {
    return async (settings, run) => {
      const path = new URL(settings.url).pathname;
      const user = path.split('/')[1] ?? '';
      this.started.push(path);
      this.startTimes.set(path, [...(this.startTimes.get(path) ?? []), Date.now()]);
      const running = (this.running.get(user) ?? 0) + 1;
      this.running.set(user, running);
      this.mostRunning.set(user, Math.max(running, this.mostRunning.get(user) ?? 0));
      try {
        if (!this.#allOpen) await this.#gate(path).passed;
        const failuresLeft = this.failures.get(path) ?? 0;
        if (failuresLeft > 0) {
          this.failures.set(path, failuresLeft - 1);
          throw new Error('the engine broke');
        }
        return await engine(settings, run);
      } finally {
        this.running.set(user, (this.running.get(user) ?? 1) - 1);
      }
    };
  };

  async until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`${what}: started ${this.started.join(' ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const backoffMs = 300;

describe.each(testDialects())('the fair scan queue (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  const watch = new EngineWatch();

  beforeAll(async () => {
    site = await startTestSite({}, { fallback: { status: 200, body: 'ok' } });
    server = await startTestServer(
      dialect,
      {
        LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
        WORKER_CONCURRENCY: '3',
        SCAN_RUNNING_PER_USER: 'Free=2',
        SCAN_MAX_ATTEMPTS: '3',
        SCAN_RETRY_BACKOFF_MS: String(backoffMs),
        // The queue is under test, not the engine: scans run in this process (a process per
        // scan would make the twelve of the first test slow on a busy machine).
        SCAN_ISOLATION: 'none',
      },
      fastEngineOptions,
      undefined,
      watch.wrap,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    watch.open();
    await endUnfinishedScans(server.database);
    await server.stop();
    await site.close();
  });

  async function queue(token: string, path: string): Promise<string> {
    const answer = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url(path), scanDepth: 1 } },
      token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as CreateScanResponse).id ?? '';
  }

  it("caps a user's running scans and lets users take turns: B's one scan starts before A's third", async () => {
    const a = await signUp(api, 'queue-a');
    const b = await signUp(api, 'queue-b');
    const c = await signUp(api, 'queue-c');
    const ids: Array<[string, string]> = [];
    for (let index = 1; index <= 10; index++)
      ids.push([a.token, await queue(a.token, `/a/${index}`)]);
    await watch.until(() => watch.started.length >= 2, 'A starts two scans');
    ids.push([b.token, await queue(b.token, '/b/1')]);
    // Three workers, A at its cap of 2: the third worker takes B's scan, not A's third.
    await watch.until(() => watch.started.includes('/b/1'), "B's scan starts");
    expect(watch.started).toEqual(['/a/1', '/a/2', '/b/1']);
    // Every worker busy: C's scan waits; when A's first ends, the free worker takes C's, not
    // A's third (first come, first served would take A's: it was queued first).
    ids.push([c.token, await queue(c.token, '/c/1')]);
    const queued = await api.get('/api/ScanApi/Get', c.token);
    expect(queued.body).toMatchObject([{ status: ScanStatus.Queued, queuePosition: 1 }]);
    // /metrics: the queue's age and its scans by state, while nine wait.
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(Number(/^linkaudit_scans\{status="6"\} (\d+)$/m.exec(metrics)?.[1])).toBe(9);
    expect(Number(/^linkaudit_scans\{status="5"\} (\d+)$/m.exec(metrics)?.[1])).toBe(3);
    const age = Number(/^linkaudit_queue_oldest_age_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(age).toBeGreaterThan(0);
    expect(metrics).toMatch(/^linkaudit_scans_waiting_retry 0$/m);
    watch.release('/a/1');
    await watch.until(() => watch.started.length >= 4, 'a fourth scan starts');
    expect(watch.started[3]).toBe('/c/1');
    watch.open();
    for (const [token, id] of ids) await waitForScan(api, token, id, (scan) => scan.status === 1);
    expect(watch.started).toHaveLength(12);
    expect(watch.mostRunning.get('a')).toBe(2);
  });

  it('retries a scan the engine broke off after a growing backoff, then completes it', async () => {
    const user = await signUp(api, 'queue-retry');
    watch.failures.set('/retry/1', 2);
    const id = await queue(user.token, '/retry/1');
    const scan = await waitForScan(api, user.token, id, (row) => row.status === 1);
    expect(scan).toMatchObject({ status: ScanStatus.Complete, logMessage: null });
    const [first = 0, second = 0, third = 0] = watch.startTimes.get('/retry/1') ?? [];
    expect(watch.startTimes.get('/retry/1')).toHaveLength(3);
    // Lower bounds only: a busy machine makes the waits longer, never shorter.
    expect(second - first).toBeGreaterThanOrEqual(backoffMs);
    expect(third - second).toBeGreaterThanOrEqual(2 * backoffMs);
  });

  it('fails a scan the engine breaks off on every attempt, saying so', async () => {
    const user = await signUp(api, 'queue-fail');
    watch.failures.set('/fail/1', 99);
    const id = await queue(user.token, '/fail/1');
    const scan = await waitForScan(api, user.token, id, (row) => row.status === 3);
    expect(scan.logMessage).toBe(
      'Engine Exception: the scan stopped unexpectedly 3 times and was given up.',
    );
    expect(watch.startTimes.get('/fail/1')).toHaveLength(3);
  });
});
