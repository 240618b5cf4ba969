import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  fastEngineOptions,
  findingsGroundTruth as truth,
  findingsScanSettings,
  findingsSitemap,
  findingsSitePages,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

/**
 * Every finding of the findings site (engine test-support/findings-site.ts) through the report
 * calls: broken anchors in the link report with their own label and filter category, the
 * duplicate-anchor and page-inclusion tabs (paged, sorted, filtered, as CSV), and rule rows with
 * the catalogue's note and page. The expected rows come from the site's ground truth.
 */
describe.each(testDialects())('report findings over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let owner: { email: string; token: string };
  let stranger: { email: string; token: string };
  let scanId: string;

  beforeAll(async () => {
    site = await startTestSite({
      ...findingsSitePages(),
      '/sitemap.xml': {
        handler: (request, response) => {
          response.writeHead(200, { 'content-type': 'application/xml' });
          response.end(findingsSitemap(`http://${request.headers.host ?? ''}`));
        },
      },
    });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'findings');
    stranger = await signUp(api, 'stranger');
    // Anchors, rank, inclusion and rules need a paid plan.
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: {
          url: site.url('/'),
          ...findingsScanSettings,
          selectedRules: [...findingsScanSettings.selectedRules],
        },
      },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    scanId = String(created.body.id);
    // A loaded machine (tests of several files at once) may queue the scan behind others.
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
  const path = (url: string) => {
    const parsed = new URL(url);
    return parsed.pathname + parsed.hash;
  };
  async function csv(tabPath: string): Promise<string[]> {
    const response = await fetch(`${server.baseUrl}${tabPath}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status).toBe(200);
    return (await response.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
  }

  type LinkSeen = { targetUri: string; sourceUri: string; failureReason: string | null };
  type InclusionSeen = {
    uri: string;
    incomingLinks: number;
    linkedFrom: string[];
    inSitemap: boolean;
    orphan: boolean;
    pageRank: number | null;
  };

  it('lists broken anchors among the broken links, with their label and filter category', async () => {
    const links = await read(`/api/report/link/${scanId}?pageSize=100`);
    expect(links.status).toBe(200);
    const rows = links.body.lists as LinkSeen[];
    const seen = rows.map((row) => [path(row.sourceUri), path(row.targetUri), row.failureReason]);
    expect(seen.sort()).toEqual(
      [
        ...truth.brokenAnchors.map(([source, target]) => [source, target, 'Broken Anchor']),
        ...truth.brokenLinks.map(([source, target]) => [source, target, 'Not Found']),
      ].sort(),
    );
    expect(links.body.total).toBe(truth.brokenAnchors.length + truth.brokenLinks.length);
    expect(links.body.filterCategories).toEqual([
      { name: 'Not Found', value: 'Not Found', count: 1, allRules: 2 },
      {
        name: 'Broken Anchor',
        value: 'Broken Anchor',
        count: truth.brokenAnchors.length,
        allRules: 2,
      },
    ]);
    const anchors = await read(`/api/report/link/${scanId}?reason=Broken%20Anchor&pageSize=3`);
    expect(anchors.body.total).toBe(truth.brokenAnchors.length);
    expect(anchors.body.lists).toHaveLength(3);
    const summary = await read(`/api/report/summary/${scanId}`);
    expect(summary.body.brokenAnchors).toBe(truth.brokenAnchors.length);
    expect(summary.body.duplicateAnchors).toBe(truth.duplicateAnchors.length);
  });

  it('lists each duplicate anchor with its page, id and both places, paged and sorted', async () => {
    const answer = await read(`/api/report/duplicateAnchor/${scanId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      total: truth.duplicateAnchors.length,
      filterCategories: [],
    });
    expect(
      (answer.body.lists as Array<Record<string, unknown> & { uri: string }>).map((row) => ({
        ...row,
        uri: path(row.uri),
      })),
    ).toEqual(
      truth.duplicateAnchors.map((duplicate) => ({
        uri: duplicate.page,
        anchor: duplicate.anchor,
        line: duplicate.duplicate.line,
        column: duplicate.duplicate.column,
        firstLine: duplicate.first.line,
        firstColumn: duplicate.first.column,
      })),
    );
    const second = await read(`/api/report/duplicateAnchor/${scanId}?pageSize=1&page=2`);
    expect((second.body.lists as Array<{ anchor: string }>).map((row) => row.anchor)).toEqual([
      truth.duplicateAnchors[1].anchor,
    ]);
    const byAnchor = await read(
      `/api/report/duplicateAnchor/${scanId}?sortBy=anchor&sortOrder=desc`,
    );
    expect((byAnchor.body.lists as Array<{ anchor: string }>).map((row) => row.anchor)).toEqual(
      truth.duplicateAnchors
        .map((row) => row.anchor)
        .sort()
        .reverse(),
    );
  });

  it('reports every page’s inclusion and rank, and filters the orphans found via the sitemap', async () => {
    const answer = await read(`/api/report/pageInclusion/${scanId}`);
    expect(answer.status).toBe(200);
    const rows = answer.body.lists as InclusionSeen[];
    expect(
      Object.fromEntries(
        rows.map((row) => [
          path(row.uri),
          {
            incomingLinks: row.incomingLinks,
            linkedFrom: row.linkedFrom.map(path).sort(),
            inSitemap: row.inSitemap,
            orphan: row.orphan,
          },
        ]),
      ),
    ).toEqual(truth.pages);
    // Least linked first; every page ranked.
    expect(rows.map((row) => row.incomingLinks)).toEqual(
      Object.values(truth.pages)
        .map((page) => page.incomingLinks)
        .sort((a, b) => a - b),
    );
    expect(rows.every((row) => typeof row.pageRank === 'number')).toBe(true);
    const pages = Object.values(truth.pages);
    expect(answer.body.filterCategories).toEqual([
      { name: 'orphan', value: 'orphan', count: pages.filter((p) => p.orphan).length, allRules: 3 },
      {
        name: 'inSitemap',
        value: 'inSitemap',
        count: pages.filter((p) => p.inSitemap).length,
        allRules: 3,
      },
      {
        name: 'notInSitemap',
        value: 'notInSitemap',
        count: pages.filter((p) => !p.inSitemap).length,
        allRules: 3,
      },
    ]);
    const orphans = await read(`/api/report/pageInclusion/${scanId}?category=orphan`);
    expect((orphans.body.lists as InclusionSeen[]).map((row) => path(row.uri))).toEqual([
      '/orphan.html',
    ]);
    const unlisted = await read(`/api/report/pageInclusion/${scanId}?category=notInSitemap`);
    expect((unlisted.body.lists as InclusionSeen[]).map((row) => path(row.uri))).toEqual([
      '/short.html',
    ]);
    const byRank = await read(`/api/report/pageInclusion/${scanId}?sortBy=pageRank&sortOrder=desc`);
    const ranks = (byRank.body.lists as InclusionSeen[]).map((row) => row.pageRank ?? 0);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const bad = await read(`/api/report/pageInclusion/${scanId}?category=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body.modelState).toHaveProperty('category');
  });

  it('answers rule rows with the catalogue’s note and page, line and position', async () => {
    const rules = await read(`/api/report/ruleResult/${scanId}`);
    const rows = rules.body.lists as Array<{
      uri: string;
      ruleId: string;
      ruleName: string;
      ruleNote: string | null;
      ruleURL: string | null;
      line: number;
      column: number;
    }>;
    expect(
      rows.map((row) => ({ page: path(row.uri), ruleId: row.ruleId, ruleName: row.ruleName })),
    ).toEqual(expect.arrayContaining(truth.rules.map((rule) => ({ ...rule }))));
    expect(rows).toHaveLength(truth.rules.length);
    const catalogue = (await read('/api/ScanRuleApi/')).body as Array<{
      linkAuditorRuleID: number;
      ruleNote: string;
      ruleURL: string;
    }>;
    for (const row of rows) {
      const rule = catalogue.find((entry) => String(entry.linkAuditorRuleID) === row.ruleId);
      expect(rule?.ruleNote).toBeTruthy();
      expect(row.ruleNote).toBe(rule?.ruleNote);
      expect(row.ruleURL).toBe(rule?.ruleURL);
      expect(row.line).toBeGreaterThan(0);
      expect(row.column).toBeGreaterThan(0);
      // The rule's page is served where ruleURL says.
      const explained = await fetch(`${server.baseUrl}${row.ruleURL ?? ''}`);
      expect(explained.status).toBe(200);
      expect(explained.headers.get('content-type')).toContain('text/plain');
      expect(await explained.text()).toContain(`# ${row.ruleName}`);
      // A browser gets the same page as HTML.
      const page = await fetch(`${server.baseUrl}${row.ruleURL ?? ''}`, {
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      expect(html).toContain('<h2>Why it matters</h2>');
      expect(html).toContain(
        `<h1>${row.ruleName.replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</h1>`,
      );
    }
    expect((await fetch(`${server.baseUrl}/rules/999999`)).status).toBe(404);
  });

  it('exports the new tabs as CSV, formula-safe', async () => {
    const duplicates = await csv(`/api/report/duplicateAnchor/${scanId}?format=csv`);
    expect(duplicates[0]).toBe('Page,Anchor,Line,Column,First line,First column');
    expect(duplicates).toHaveLength(truth.duplicateAnchors.length + 1);
    const formula = truth.duplicateAnchors[2];
    expect(duplicates[3]).toBe(
      `${site.url(formula.page)},'${formula.anchor},${formula.duplicate.line},${formula.duplicate.column},${formula.first.line},${formula.first.column}`,
    );
    const inclusion = await csv(`/api/report/pageInclusion/${scanId}?format=csv&category=orphan`);
    expect(inclusion[0]).toBe(
      'Page,Status code,Incoming links,In sitemap,Orphan,Indexable,Not indexable because,Page rank,Linked from',
    );
    expect(inclusion).toHaveLength(2);
    expect(inclusion[1]).toMatch(
      new RegExp(`^${site.url('/orphan.html')},200,0,yes,yes,yes,,[0-9.e-]+,$`),
    );
    const anchors = await csv(`/api/report/link/${scanId}?format=csv&reason=Broken%20Anchor`);
    expect(anchors).toHaveLength(truth.brokenAnchors.length + 1);
    expect(anchors.slice(1).every((line) => line.includes(',Broken Anchor,'))).toBe(true);
  });

  it('shows the new tabs to the owner only', async () => {
    for (const tab of ['duplicateAnchor', 'pageInclusion']) {
      expect((await api.get(`/api/report/${tab}/${scanId}`, stranger.token)).status).toBe(404);
      expect((await api.get(`/api/report/${tab}/${scanId}`)).status).toBe(404);
    }
  });
});
