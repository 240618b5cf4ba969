import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  fastEngineOptions,
  htmlPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

/**
 * The rule tab's grouped view (issue 25): counts per rule, a rule's groups of identical findings
 * (the same obsolete <font> on every page is one group), a group's rows through the rule tab's
 * call; the rule tab itself and its CSV keep every row.
 */
describe.each(testDialects())('rule findings grouped (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let owner: { email: string; token: string };
  let stranger: { email: string; token: string };
  let scanId: string;

  // Four pages with two <font> and one <center> each; one of them also a slip ("recieve").
  const obsolete = '<font color="red">a</font> <font>b</font> <center>c</center>';
  const pages = {
    '/': htmlPage(`${obsolete}<a href="/b">b</a><a href="/c">c</a><a href="/d">d</a>`),
    '/b': htmlPage(obsolete),
    '/c': htmlPage(obsolete),
    '/d': htmlPage(`${obsolete}<p>We recieve letters.</p>`),
  };

  beforeAll(async () => {
    site = await startTestSite(pages);
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'grouper');
    stranger = await signUp(api, 'stranger');
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/'), scanDepth: 3, selectedRules: [3007, 2001] } },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    scanId = String(created.body.id);
    await waitForScan(
      api,
      owner.token,
      scanId,
      (scan) => scan.status === ScanStatus.Complete,
      50_000,
    );
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  const read = (path: string) => api.get(path, owner.token);

  it('counts findings, pages and groups per rule, most findings first', async () => {
    const answer = await read(`/api/report/ruleCounts/${scanId}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      findings: 13,
      rules: [
        expect.objectContaining({ ruleId: '3007', findings: 12, pages: 4, groups: 2 }),
        expect.objectContaining({ ruleId: '2001', findings: 1, pages: 1, groups: 1 }),
      ],
    });
    const spelling = await read(`/api/report/ruleCounts/${scanId}?category=2`);
    expect((spelling.body as { rules: unknown[] }).rules).toEqual([
      expect.objectContaining({ ruleId: '2001', ruleCategoryID: 2, ruleURL: '/rules/2001' }),
    ]);
  });

  it('groups a rule’s identical findings, largest first, paged; a group’s rows are the rule tab’s', async () => {
    const answer = await read(`/api/report/ruleGroups/${scanId}?ruleId=3007`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const groups = answer.body as {
      lists: Array<{ key: string; findings: number; pages: number; firstUri: string }>;
      total: number;
    };
    expect(groups.total).toBe(2);
    expect(
      groups.lists.map(({ findings, pages, firstUri }) => ({ findings, pages, firstUri })),
    ).toEqual([
      { findings: 8, pages: 4, firstUri: site.url('/') },
      { findings: 4, pages: 4, firstUri: site.url('/') },
    ]);
    const [font, center] = groups.lists;
    expect(font?.key).toContain('font');
    expect(center?.key).toContain('center');

    const second = await read(`/api/report/ruleGroups/${scanId}?ruleId=3007&page=2&pageSize=1`);
    expect(second.body).toMatchObject({
      total: 2,
      page: 2,
      pageSize: 1,
      lists: [{ key: center?.key }],
    });

    const rows = await read(
      `/api/report/ruleResult/${scanId}?ruleId=3007&group=${encodeURIComponent(font?.key ?? '')}&pageSize=5`,
    );
    const fontRows = rows.body as {
      total: number;
      lists: Array<{ ruleId: string; message: string | null; snippet: string | null }>;
    };
    expect(fontRows.total).toBe(8);
    expect(fontRows.lists).toHaveLength(5);
    for (const row of fontRows.lists) {
      expect(row.ruleId).toBe('3007');
      expect(row.message ?? row.snippet).toBe(font?.key);
    }
  });

  it('keeps the rule tab and its CSV whole: every finding is a row', async () => {
    const tab = await read(`/api/report/ruleResult/${scanId}`);
    expect((tab.body as { total: number }).total).toBe(13);
    const csv = await fetch(`${server.baseUrl}/api/report/ruleResult/${scanId}?format=csv`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(1 + 13);
  });

  it('answers the owner only and checks its query', async () => {
    for (const path of [
      `/api/report/ruleCounts/${scanId}`,
      `/api/report/ruleGroups/${scanId}?ruleId=3007`,
    ]) {
      expect((await api.get(path, stranger.token)).status, path).toBe(404);
    }
    expect((await read(`/api/report/ruleGroups/${scanId}`)).status).toBe(400);
    expect((await read(`/api/report/ruleGroups/${scanId}?ruleId=x`)).status).toBe(400);
    expect((await read(`/api/report/ruleGroups/${scanId}?ruleId=3007&pageSize=5000`)).status).toBe(
      400,
    );
    expect((await read(`/api/report/ruleCounts/${scanId}?category=seo`)).status).toBe(400);
  });
});
