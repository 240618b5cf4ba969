// The operator's API of issue 24 over HTTP: the paged scan list, users (role, disable), vouchers
// (expire), the audit log, health and /metrics (parsed as Prometheus text), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, ScanStatus } from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

/** One sample of the Prometheus text format: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses Prometheus' text exposition format (0.0.4), refusing any line that does not follow it:
 * `# HELP`/`# TYPE` lines, and `name{label="value",…} number` samples.
 */
function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const sampleLine = new RegExp(`^(${name})(?:\\{(.*)\\})? (\\S+)$`);
  const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = new RegExp(`^# TYPE (${name}) (counter|gauge|histogram|summary|untyped)$`).exec(
      line,
    );
    if (type) {
      types.set(type[1] ?? '', type[2] ?? '');
      continue;
    }
    if (new RegExp(`^# HELP ${name} `).test(line)) continue;
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    labelPair.lastIndex = 0;
    while (labelPair.lastIndex < body.length) {
      const pair = labelPair.exec(body);
      if (!pair) throw new Error(`bad labels: ${line}`);
      labels[pair[1] ?? ''] = (pair[2] ?? '').replace(/\\(.)/g, '$1');
    }
    // The text format's special values (Prometheus reads them in any case): a gauge with no
    // sample yet, as the event-loop lag right after the server started, is NaN, not an error.
    const special: Record<string, number> = { '+inf': Infinity, '-inf': -Infinity, nan: NaN };
    const text = match[3] ?? '';
    const value = text.toLowerCase() in special ? special[text.toLowerCase()]! : Number(text);
    if (Number.isNaN(value) && text.toLowerCase() !== 'nan') throw new Error(`bad value: ${line}`);
    samples.push({ name: match[1] ?? '', labels, value });
  }
  return { samples, types };
}

describe.each(testDialects())('admin operations over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  const bossEmail = `boss-ops-${dialect}@example.com`;
  let boss: { email: string; token: string };

  beforeAll(async () => {
    site = await startTestSite({
      '/a1': 'a1',
      '/a2': 'a2',
      '/b1': 'b1',
      '/c1': 'c1',
      '/slow': { delayMs: 100_000, body: 'late' },
    });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ADMIN_EMAILS: bossEmail },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    boss = await signUp(api, 'boss', bossEmail);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  async function put(path: string, token: string, body: unknown) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  async function submit(token: string, url: string) {
    const created = await api.post('/api/ScanApi/', { scanSettings: { url } }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return String(created.body.id);
  }

  it('pages, sorts and filters every user’s scans by status, owner and URL', async () => {
    const alice = await signUp(api, 'alice');
    const bob = await signUp(api, 'bob');
    const ids = [
      await submit(alice.token, site.url('/a1')),
      await submit(alice.token, site.url('/a2')),
      await submit(bob.token, site.url('/b1')),
    ];
    for (const [index, id] of ids.entries()) {
      const token = index < 2 ? alice.token : bob.token;
      await waitForScan(api, token, id, (scan) => scan.status === ScanStatus.Complete);
    }
    const byOwner = await api.get(
      `/api/admin/scans/page?owner=${encodeURIComponent(alice.email.toUpperCase())}&sortBy=url&sortOrder=asc`,
      boss.token,
    );
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(200);
    expect(byOwner.body.total).toBe(2);
    expect((byOwner.body.rows as Array<{ url: string }>).map((row) => row.url)).toEqual([
      site.url('/a1'),
      site.url('/a2'),
    ]);
    expect(byOwner.body.rows[0].ownerEmail).toBe(alice.email);
    expect(byOwner.body.rows[0].attempts).toBe(1);

    const paged = await api.get(
      `/api/admin/scans/page?url=127.0.0.1&pageSize=2&page=2&sortBy=url&sortOrder=asc`,
      boss.token,
    );
    expect(paged.body.total).toBeGreaterThanOrEqual(3);
    expect(paged.body.rows).toHaveLength(Math.min(2, paged.body.total - 2));

    const byUrl = await api.get(`/api/admin/scans/page?url=B1&status=1,3`, boss.token);
    expect((byUrl.body.rows as Array<{ id: string }>).map((row) => row.id)).toEqual([ids[2]]);
    const none = await api.get(`/api/admin/scans/page?url=b1&status=6`, boss.token);
    expect(none.body.total).toBe(0);
    // LIKE's own characters are taken literally.
    const literal = await api.get(`/api/admin/scans/page?url=%25`, boss.token);
    expect(literal.body.total).toBe(0);

    expect((await api.get('/api/admin/scans/page?sortBy=__proto__', boss.token)).status).toBe(400);
    expect((await api.get('/api/admin/scans/page?status=x', boss.token)).status).toBe(400);
  });

  it('lists users with plan, credit and role; grants admin and records it in the audit log', async () => {
    const carol = await signUp(api, 'carol');
    const id = await submit(carol.token, site.url('/c1'));
    await waitForScan(api, carol.token, id, (scan) => scan.status === ScanStatus.Complete);
    const listed = await api.get(
      `/api/admin/users?search=${encodeURIComponent(carol.email)}`,
      boss.token,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1);
    const row = listed.body.rows[0];
    expect(row).toMatchObject({ email: carol.email, paidPlanId: 'Free', role: 'user' });
    expect(row.creditUsed).toBe(1);
    expect(row.creditLimit).toBe(25_000);
    expect(row.lastSignIn).not.toBeNull();

    expect((await api.get('/api/admin/users', carol.token)).status).toBe(403);
    expect((await put(`/api/admin/users/${row.id}/role`, boss.token, { admin: true })).status).toBe(
      200,
    );
    // The granted role works at once: carol may read the admin list.
    expect((await api.get('/api/admin/scans/page', carol.token)).status).toBe(200);
    const audit = await api.get(`/api/admin/audit?target=${row.id}`, boss.token);
    expect(audit.body.rows[0]).toMatchObject({
      adminEmail: boss.email,
      action: 'user.grantAdmin',
      before: { role: 'user' },
      after: { role: 'admin' },
    });
    // An ADMIN_EMAILS admin cannot lose the role here, nor can an admin drop their own.
    const bossRow = (await api.get(`/api/admin/users?search=${bossEmail}`, boss.token)).body
      .rows[0];
    const own = await put(`/api/admin/users/${bossRow.id}/role`, boss.token, { admin: false });
    expect(own.status).toBe(409);
    expect(
      (await put(`/api/admin/users/${row.id}/role`, boss.token, { admin: false })).status,
    ).toBe(200);
    expect((await api.get('/api/admin/scans/page', carol.token)).status).toBe(403);
  });

  it('disables a user: scans stop, tokens and sign-in refused, nothing deleted; enables again', async () => {
    const dave = await signUp(api, 'dave');
    const running = await submit(dave.token, site.url('/slow'));
    await waitForScan(api, dave.token, running, (scan) => scan.status === ScanStatus.InProgress);
    const daveId = (await api.get(`/api/admin/users?search=${dave.email}`, boss.token)).body.rows[0]
      .id;
    expect(
      (await put(`/api/admin/users/${daveId}/disabled`, boss.token, { disabled: true })).status,
    ).toBe(200);

    expect((await api.get('/api/ScanApi/Get', dave.token)).status).toBe(401);
    const signIn = await api.form('/token', {
      grant_type: 'password',
      username: dave.email,
      password: 'secret1',
    });
    expect(signIn.status).toBe(400);
    expect(signIn.body.error_description).toBe(adminMessages.accountDisabled);
    const scans = await api.get(`/api/admin/scans/page?owner=${dave.email}`, boss.token);
    expect(scans.body.total).toBe(1);
    for (;;) {
      const scan = (await api.get(`/api/admin/scans/page?owner=${dave.email}`, boss.token)).body
        .rows[0];
      if (scan.status === ScanStatus.Cancelled) break;
      expect([ScanStatus.InProgress, ScanStatus.Cancelling]).toContain(scan.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const disabledRow = (await api.get(`/api/admin/users?search=${dave.email}`, boss.token)).body
      .rows[0];
    expect(disabledRow.disabled).toBe(true);

    expect(
      (await put(`/api/admin/users/${daveId}/disabled`, boss.token, { disabled: false })).status,
    ).toBe(200);
    const again = await api.form('/token', {
      grant_type: 'password',
      username: dave.email,
      password: 'secret1',
    });
    expect(again.status).toBe(200);
    const audit = await api.get(`/api/admin/audit?target=${daveId}`, boss.token);
    expect((audit.body.rows as Array<{ action: string }>).map((entry) => entry.action)).toEqual([
      'user.enable',
      'user.disable',
    ]);
    expect(audit.body.rows[1].after).toMatchObject({ disabled: true, stoppedScans: 1 });
  });

  it('creates, lists and expires a voucher; both changes are audited', async () => {
    const code = `SPRING-${dialect}`;
    const created = await api.post('/api/admin/vouchers', { code, type: 2, value: 25 }, boss.token);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const user = await signUp(api);
    expect((await api.get(`/api/Account/ValidateCoupon?coupon=${code}`, user.token)).status).toBe(
      200,
    );
    const expired = await put('/api/admin/vouchers/expire', boss.token, { code });
    expect(expired.status).toBe(200);
    expect(expired.body.expiresAt).not.toBeNull();
    expect((await api.get(`/api/Account/ValidateCoupon?coupon=${code}`, user.token)).status).toBe(
      404,
    );
    const listed = await api.get('/api/admin/vouchers', boss.token);
    expect(
      (listed.body as Array<{ code: string }>).find((voucher) => voucher.code === code),
    ).toBeDefined();
    const audit = await api.get(`/api/admin/audit?target=${code}`, boss.token);
    expect((audit.body.rows as Array<{ action: string }>).map((entry) => entry.action)).toEqual([
      'voucher.expire',
      'voucher.create',
    ]);
    expect((await put('/api/admin/vouchers/expire', boss.token, { code: 'nope' })).status).toBe(
      404,
    );
  });

  it('answers health and /metrics with the same figures, /metrics only to loopback here', async () => {
    const health = await api.get('/api/admin/health', boss.token);
    expect(health.status).toBe(200);
    const complete = (health.body.queueDepth as Array<{ status: number; count: number }>).find(
      (row) => row.status === ScanStatus.Complete,
    );
    expect(complete?.count).toBeGreaterThanOrEqual(1);

    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const { samples, types } = parsePrometheus(await response.text());
    expect(types.get('linkaudit_http_request_duration_seconds')).toBe('histogram');
    expect(types.get('linkaudit_scans')).toBe('gauge');
    const completeSample = samples.find(
      (sample) => sample.name === 'linkaudit_scans' && sample.labels.status === '1',
    );
    expect(completeSample?.value).toBe(complete?.count);
    const latency = samples.filter(
      (sample) =>
        sample.name === 'linkaudit_http_request_duration_seconds_count' &&
        sample.labels.route === '/api/admin/health',
    );
    expect(latency.reduce((sum, sample) => sum + sample.value, 0)).toBeGreaterThanOrEqual(1);
    expect(samples.some((sample) => sample.name === 'linkaudit_lease_expiries_24h')).toBe(true);

    // Through a proxy a client is not local: any proxy's header is refused without a token,
    // X-Real-IP (nginx's common recipe) and Via as much as X-Forwarded-For.
    const proxyHeaders: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { via: '1.1 nginx' },
      { 'x-forwarded-host': 'links.example.com' },
      { forwarded: 'for=203.0.113.9' },
    ];
    for (const headers of proxyHeaders) {
      const proxied = await fetch(`${server.baseUrl}/metrics`, { headers });
      expect({ headers, status: proxied.status }).toEqual({ headers, status: 403 });
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  const token = 'metrics-secret-0123456789';

  beforeAll(async () => {
    server = await startTestServer('sqlite', { METRICS_TOKEN: token });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('asks for the bearer token, even from loopback', async () => {
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.baseUrl}/metrics`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${server.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(right.status).toBe(200);
    const { samples } = parsePrometheus(await right.text());
    expect(samples.some((sample) => sample.name === 'linkaudit_scheduler_last_tick_seconds')).toBe(
      true,
    );
  });
});
