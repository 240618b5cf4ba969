import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  brokenSummary,
  collectScan,
  fastEngineOptions,
  linksPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { sendDelete, signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { planUsage, runPlanCommand } from '../accounts/plan-command.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

describe.each(testDialects())('scans over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite(
      {
        '/': linksPage(['/ok', '/missing', '/error', '/about']),
        '/ok': 'fine',
        '/about': linksPage(['/missing', '/gone']),
        '/error': { status: 500, body: 'oops' },
        '/gone': { status: 410, body: 'gone' },
        '/slow': linksPage(Array.from({ length: 40 }, (_, index) => `/slow/${index}`)),
        '/big': linksPage(Array.from({ length: 30 }, (_, index) => `/big/${index}`)),
      },
      { fallback: { delayMs: 0, status: 404, body: 'Not Found' } },
    );
    for (let index = 0; index < 40; index++)
      site.routes[`/slow/${index}`] = { delayMs: 300, body: 'slow' };
    for (let index = 0; index < 30; index++) site.routes[`/big/${index}`] = 'ok';
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  async function submit(token: string, settings: Record<string, unknown>) {
    return api.post('/api/ScanApi/', { scanSettings: { scanDepth: 3, ...settings } }, token);
  }

  it('queues a scan, runs it 6 → 5 → … → 1, and reports what the engine finds', async () => {
    const { token } = await signUp(api);
    const created = await submit(token, { url: site.url('/') });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ status: ScanStatus.Queued, url: site.url('/') });
    expect(created.body.queuePosition).toBeGreaterThanOrEqual(1);
    expect(created.body.scanSettings).toMatchObject({ scanLimitOption: 1, maxLinkAmount: 5000 });

    const scan = await waitForScan(
      api,
      token,
      String(String(created.body.id)),
      (item) => item.status === ScanStatus.Complete,
    );
    const engine = await collectScan({ url: site.url('/'), scanDepth: 3 }, fastEngineOptions);
    expect(scan).toMatchObject({
      totalLinks: engine.done.summary.totalLinks,
      uniqueLinks: engine.done.summary.uniqueLinks,
      badLinks: engine.done.summary.brokenLinks,
      uniqueBadLinks: engine.done.summary.uniqueBrokenLinks,
      queuePosition: null,
    });
    expect(scan.jobStarted).not.toBeNull();
    expect(scan.dateCompleted).not.toBeNull();

    const links = await api.get(`/api/report/link/${scan.id}?pageSize=100`, token);
    expect(links.status).toBe(200);
    const expected = brokenSummary(engine.links);
    const byTarget = await api.get(`/api/report/link/${scan.id}?groupBy=target`, token);
    const groups = byTarget.body.groups as Array<{ key: string }>;
    expect(groups.map((group) => group.key).sort()).toEqual(
      expected.map((broken) => broken.url).sort(),
    );
    for (const broken of expected) {
      const rows = (links.body.lists as Array<{ targetUri: string }>).filter(
        (row: { targetUri: string }) => row.targetUri === broken.url,
      );
      expect(rows).toHaveLength(broken.referenceCount);
      expect(rows[0]).toMatchObject({
        failureReason: broken.reason,
        referenceCount: broken.referenceCount,
      });
    }
    expect(links.body.total).toBe(engine.done.summary.brokenLinks);

    const summary = await api.get(`/api/report/summary/${scan.id}`, token);
    expect(summary.status).toBe(200);
    expect(summary.body.numPages).toBe(engine.done.summary.pages);
    expect(summary.body.reasons).toEqual(
      expect.arrayContaining([{ failureReason: 'Not Found', numberOfReferences: 3 }]),
    );
    const live = await api.get(`/reports/BrokenLinksSummary/${scan.id}`, token);
    expect(live.body.uniqueBadLinks).toBe(engine.done.summary.uniqueBrokenLinks);

    const csv = await fetch(`${server.baseUrl}/api/report/link/${scan.id}?format=csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const bytes = new Uint8Array(await csv.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.split('\r\n').length).toBe(engine.done.summary.brokenLinks + 2);
  });

  it('cancels a running scan: 8, then 2, partial results kept', async () => {
    const { token } = await signUp(api);
    const created = await submit(token, { url: site.url('/slow'), maxThreadCount: 2 });
    await waitForScan(
      api,
      token,
      String(String(created.body.id)),
      // Cancelled once it has results: a scan process starting on a loaded machine may take
      // longer than any fixed wait.
      (item) => item.status === ScanStatus.InProgress && item.uniqueLinks > 0,
    );
    const cancelled = await sendDelete(
      server.baseUrl,
      `/api/ScanApi/?id=${String(created.body.id)}`,
      token,
    );
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as { status: number }).status).toBe(ScanStatus.Cancelling);
    const again = await sendDelete(
      server.baseUrl,
      `/api/ScanApi/?id=${String(created.body.id)}`,
      token,
    );
    expect(again.status).toBe(409);
    const scan = await waitForScan(
      api,
      token,
      String(String(created.body.id)),
      (item) => item.status === ScanStatus.Cancelled,
    );
    expect(scan.uniqueLinks).toBeGreaterThan(0);
    expect(scan.uniqueLinks).toBeLessThan(41);
    const pages = await api.get(`/api/report/page/${scan.id}`, token);
    expect(pages.body.total).toBeGreaterThan(0);
    expect(pages.body.total).toBeLessThan(41);
  });

  it('ends with Timeout (4) and Limit Reached (10)', async () => {
    const { token } = await signUp(api);
    const slow = await submit(token, {
      url: site.url('/slow'),
      maxThreadCount: 1,
      timeoutAfter: 0.0003,
    });
    const limited = await submit(token, { url: site.url('/big'), maxLinkAmount: 10 });
    const timedOut = await waitForScan(
      api,
      token,
      String(slow.body.id),
      (item) => item.status === ScanStatus.Timeout,
    );
    expect(timedOut.dateCompleted).not.toBeNull();
    const limitReached = await waitForScan(
      api,
      token,
      String(limited.body.id),
      (item) => item.status === ScanStatus.OverMaxLinks,
    );
    expect(limitReached.uniqueLinks).toBeLessThanOrEqual(10);
  });

  it('answers 13 with the URLs left and 12 when none are left this month', async () => {
    const { token } = await signUp(api);
    const first = await submit(token, { url: site.url('/ok'), scanDepth: 1 });
    await waitForScan(
      api,
      token,
      String(String(first.body.id)),
      (item) => item.status === ScanStatus.Complete,
    );
    await server.database.db
      .updateTable('scans')
      .set({ unique_links: 22_000 })
      .where('id', '=', String(first.body.id))
      .execute();
    const low = await submit(token, { url: site.url('/ok'), scanDepth: 1 });
    expect(low.body).toMatchObject({ status: 13, remainingUrls: 3000 });
    const fits = await submit(token, { url: site.url('/ok'), scanDepth: 1, maxLinkAmount: 3000 });
    expect(fits.body.status).toBe(ScanStatus.Queued);
    await server.database.db
      .updateTable('scans')
      .set({ unique_links: 25_000 })
      .where('id', '=', String(first.body.id))
      .execute();
    const none = await submit(token, { url: site.url('/ok'), scanDepth: 1, maxLinkAmount: 100 });
    expect(none.body).toMatchObject({ status: 12, remainingUrls: 0 });
  });

  it("answers 404 to another user on every route of someone else's scan", async () => {
    const owner = await signUp(api, 'owner');
    const other = await signUp(api, 'other');
    const created = await submit(owner.token, { url: site.url('/ok'), scanDepth: 1 });
    const id = String(created.body.id);
    await waitForScan(api, owner.token, id, (item) => item.status === ScanStatus.Complete);
    for (const path of [
      `/reports/BrokenLinksSummary/${id}`,
      `/api/report/summary/${id}`,
      `/api/report/link/${id}`,
      `/api/report/page/${id}`,
      `/api/report/ruleResult/${id}`,
      `/api/report/fileType/${id}`,
      `/api/report/link/${id}?format=csv`,
    ]) {
      expect((await api.get(path, other.token)).status, path).toBe(404);
    }
    expect((await sendDelete(server.baseUrl, `/api/ScanApi/?id=${id}`, other.token)).status).toBe(
      404,
    );
    expect(
      (await sendDelete(server.baseUrl, `/api/ScanApi/Trash?id=${id}`, other.token)).status,
    ).toBe(404);
    expect((await api.get('/api/ScanApi/Get', other.token)).body).toEqual([]);
    expect((await api.get(`/api/report/summary/${id}`)).status).toBe(404);

    expect(
      (await sendDelete(server.baseUrl, `/api/ScanApi/Trash?id=${id}`, owner.token)).status,
    ).toBe(200);
    expect((await api.get(`/api/report/summary/${id}`, owner.token)).status).toBe(404);
  });

  it('forces Free limits at submit and lets `plan set` lift them (queue priority by plan)', async () => {
    const { email, token } = await signUp(api);
    const wanted = {
      url: site.url('/ok'),
      scanDepth: 1,
      scanLimitOption: 2,
      maxLinkAmount: 20_000,
      checkAnchors: true,
      selectedRules: [1, 2],
      renderPages: true,
    };
    const free = await submit(token, wanted);
    expect(free.body).toMatchObject({ priority: 1 });
    expect(free.body.scanSettings).toMatchObject({
      scanLimitOption: 1,
      maxLinkAmount: 5000,
      checkAnchors: false,
      selectedRules: [],
    });
    // Rendering is a paid option: left out of a Free scan's settings (not set to false).
    expect(free.body.scanSettings).not.toHaveProperty('renderPages');
    await expect(runPlanCommand(server.database.db, ['set', email, 'premium'])).resolves.toBe(
      `${email} is now on the Premium plan.`,
    );
    await expect(runPlanCommand(server.database.db, ['set', email, 'gold'])).rejects.toThrow(
      planUsage,
    );
    expect((await api.get('/api/account/userInfo', token)).body.paidPlanId).toBe('Premium');
    const paid = await submit(token, wanted);
    expect(paid.body).toMatchObject({ priority: 3 });
    expect(paid.body.scanSettings).toMatchObject({
      scanLimitOption: 2,
      checkAnchors: true,
      selectedRules: [1, 2],
      renderPages: true,
    });
  });

  it('lists the scan rules', async () => {
    const { token } = await signUp(api);
    const rules = await api.get('/api/ScanRuleApi/', token);
    expect(rules.status).toBe(200);
    const catalogue = rules.body as Array<{ linkAuditorRuleID: number; categoryID: number }>;
    expect(catalogue.length).toBeGreaterThan(0);
    expect(catalogue[0]).toMatchObject({ linkAuditorRuleID: expect.any(Number) });
    // SPEC §3's date and employee fields answer real values: when and by whom each rule came.
    const title = catalogue.find((rule) => rule.linkAuditorRuleID === 4001) as
      Record<string, unknown> | undefined;
    expect(title).toMatchObject({
      dateCreated: expect.stringMatching(/^2026-\d\d-\d\dT/),
      createdBy: expect.stringMatching(/\S/),
      dateModified: expect.stringMatching(/^2026-\d\d-\d\dT/),
      modifiedBy: expect.stringMatching(/\S/),
    });
    expect(Date.parse(String(title?.dateModified))).toBeGreaterThanOrEqual(
      Date.parse(String(title?.dateCreated)),
    );
    const dated = catalogue.filter((rule) => 'dateCreated' in rule && 'createdBy' in rule);
    expect(dated).toHaveLength(catalogue.length);
  });
});
