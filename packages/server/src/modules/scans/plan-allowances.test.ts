import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  plans,
  ruleCategoryOfId,
  RuleCategory,
  ScanStatus,
  scanMessages,
  websiteMessages,
} from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { sendDelete, signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

/**
 * DESIGN §4's "websites" and "HTML check" allowances, applied once at submit (resolveScan):
 * every test site listens on its own port of 127.0.0.1, which makes it a site of its own.
 */
describe.each(testDialects())('plan allowances over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  const sites: TestSite[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 12; index++) {
      sites.push(await startTestSite({ '/': 'fine', '/other': 'also fine' }));
    }
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all(sites.map((site) => site.close()));
  });

  const site = (index: number, path = '/') => sites[index]?.url(path) ?? '';

  async function submit(token: string, settings: Record<string, unknown>) {
    return api.post('/api/ScanApi/', { scanSettings: { scanDepth: 1, ...settings } }, token);
  }

  async function queued(token: string, url: string): Promise<string> {
    const answer = await submit(token, { url });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status).toBe(ScanStatus.Queued);
    return String(answer.body.id);
  }

  function expectWebsiteRefusal(answer: { status: number; body: unknown }, allowed: number) {
    const message = websiteMessages.limitReached(allowed);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toEqual({ message, modelState: { url: [message] } });
  }

  it('refuses a Free user a fourth website, always scans a kept one, and frees a slot on delete', async () => {
    const { token } = await signUp(api, 'websites');
    const first = await queued(token, site(0));
    await queued(token, site(1));
    await queued(token, site(2));

    expectWebsiteRefusal(await submit(token, { url: site(3) }), plans.Free.websites ?? 0);
    // Another page of a kept site is the same website.
    await queued(token, site(0, '/other'));
    const list = (await api.get('/api/ScanApi/Get', token)).body as Array<{ url: string }>;
    expect(list.some((scan) => scan.url === site(3))).toBe(false);

    // Deleting every scan of a site frees its slot; one scan of it left keeps it.
    await waitForScan(api, token, first, (scan) => scan.status === ScanStatus.Complete);
    expect((await sendDelete(server.baseUrl, `/api/ScanApi/Trash?id=${first}`, token)).status).toBe(
      200,
    );
    expectWebsiteRefusal(await submit(token, { url: site(3) }), 3);
    const others = (await api.get('/api/ScanApi/Get', token)).body as Array<{
      id: string;
      url: string;
    }>;
    for (const scan of others.filter((item) => item.url === site(0, '/other'))) {
      await sendDelete(server.baseUrl, `/api/ScanApi/Trash?id=${scan.id}`, token);
    }
    await queued(token, site(3));
  });

  it('keeps every scan on a downgrade and lets the user go on scanning the sites they have', async () => {
    const { email, token } = await signUp(api, 'downgrade');
    await runPlanCommand(server.database.db, ['set', email, 'basic']);
    for (let index = 0; index < 5; index++) await queued(token, site(index));
    await runPlanCommand(server.database.db, ['set', email, 'free']);

    const list = (await api.get('/api/ScanApi/Get', token)).body as Array<{ url: string }>;
    expect(list).toHaveLength(5);
    expectWebsiteRefusal(await submit(token, { url: site(5) }), 3);
    await queued(token, site(4, '/other'));
  });

  it('counts schedules as websites and frees the old site when a schedule moves', async () => {
    const { email, token } = await signUp(api, 'schedules');
    await runPlanCommand(server.database.db, ['set', email, 'basic']);
    const allowed = plans.Basic.websites ?? 0;
    for (let index = 0; index < allowed - 1; index++) await queued(token, site(index));
    const schedule = async (url: string, extra: Record<string, unknown> = {}) =>
      api.post(
        '/api/ScanApi/ScheduleScan',
        { scanSettings: { url, scanDepth: 1 }, scheduleSettings: {}, ...extra },
        token,
      );
    const created = await schedule(site(allowed - 1));
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    expectWebsiteRefusal(await schedule(site(allowed)), allowed);
    // The same answer through the scan form's path (a scan with a schedule).
    expectWebsiteRefusal(
      await api.post(
        '/api/ScanApi/',
        { scanSettings: { url: site(allowed) }, enableSchedule: true, saveScheduleOnly: true },
        token,
      ),
      allowed,
    );
    expectWebsiteRefusal(await submit(token, { url: site(allowed) }), allowed);
    expect((await schedule(site(0))).status).toBe(200);

    // The schedule was the only thing keeping its site: moving it takes no new slot.
    const moved = await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.body.id, url: site(allowed) },
      token,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.url).toBe(site(allowed));
    expectWebsiteRefusal(await submit(token, { url: site(allowed - 1) }), allowed);
  });

  it('withholds Valid HTML rules on a plan without HTML check, once, at submit', async () => {
    const { email, token } = await signUp(api, 'html');
    const catalogue = (await api.get('/api/ScanRuleApi/', token)).body as Array<{
      linkAuditorRuleID: number;
      categoryID: number;
    }>;
    // The id convention resolveScan relies on holds for every rule the server offers.
    for (const rule of catalogue)
      expect(ruleCategoryOfId(rule.linkAuditorRuleID)).toBe(rule.categoryID);
    const html = catalogue.find((rule) => rule.categoryID === RuleCategory.ValidHtml);
    const seo = catalogue.find((rule) => rule.categoryID === RuleCategory.Seo);
    if (!html || !seo) throw new Error('the catalogue has Valid HTML and SEO rules');
    const selectedRules = [seo.linkAuditorRuleID, html.linkAuditorRuleID];

    await runPlanCommand(server.database.db, ['set', email, 'basic']);
    const basic = await submit(token, { url: site(0), selectedRules });
    expect(basic.status, JSON.stringify(basic.body)).toBe(200);
    expect(basic.body).toMatchObject({
      status: ScanStatus.Queued,
      withheldRules: [html.linkAuditorRuleID],
      message: scanMessages.rulesWithheld,
    });
    expect(basic.body.scanSettings.selectedRules).toEqual([seo.linkAuditorRuleID]);
    const stored = await server.database.db
      .selectFrom('scans')
      .select('settings_json')
      .where('id', '=', String(basic.body.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings_json)).toMatchObject({
      selectedRules: [seo.linkAuditorRuleID],
      withheldRules: [html.linkAuditorRuleID],
    });

    await runPlanCommand(server.database.db, ['set', email, 'premium']);
    const premium = await submit(token, { url: site(0), selectedRules });
    expect(premium.body.scanSettings.selectedRules).toEqual(selectedRules);
    expect(premium.body.withheldRules).toBeUndefined();
    // The plan is applied once: a downgrade after submit leaves the queued scan as resolved.
    await runPlanCommand(server.database.db, ['set', email, 'basic']);
    const list = (await api.get('/api/ScanApi/Get', token)).body as Array<{
      id: string;
      scanSettings: { selectedRules: number[] };
    }>;
    const kept = list.find((scan) => scan.id === String(premium.body.id));
    expect(kept?.scanSettings.selectedRules).toEqual(selectedRules);
  });
});
