import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

describe.each(testDialects())('admin over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite({ '/': 'hello' });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ADMIN_EMAILS: `boss-${dialect}@example.com` },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  async function put(path: string, token: string, body?: unknown) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("lists every user's scans, sets one to Failed and requeues it; others get 403", async () => {
    const boss = await signUp(api, 'boss', `boss-${dialect}@example.com`);
    const user = await signUp(api);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') } },
      user.token,
    );
    const id = String(created.body.id);
    await waitForScan(api, user.token, id, (scan) => scan.status === ScanStatus.Complete);

    expect((await api.get('/api/admin/scans/', user.token)).status).toBe(403);
    expect((await put(`/api/admin/SetScanStateToFailed/${id}`, user.token)).status).toBe(403);
    const all = await api.get('/api/admin/scans/', boss.token);
    expect((all.body as Array<{ id: string }>).map((scan) => scan.id)).toContain(id);

    expect((await put(`/api/admin/SetScanStateToFailed/${id}`, boss.token)).status).toBe(200);
    await waitForScan(api, user.token, id, (scan) => scan.status === ScanStatus.Failed);

    const requeued = await put('/api/admin/Requeue/', boss.token, {
      id,
      scanSettings: { url: site.url('/'), maxLinkAmount: 50, scanLimitOption: 1 },
    });
    expect(requeued.status).toBe(200);
    const done = await waitForScan(
      api,
      user.token,
      id,
      (scan) => scan.status === ScanStatus.Complete,
    );
    expect(done.scanSettings.maxLinkAmount).toBe(50);
  });
});
