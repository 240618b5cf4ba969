import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requestFailureTexts,
  requestMessages,
  ScanStatus,
  startPageFailure,
} from '@linkaudit/core';
import {
  fastEngineOptions,
  htmlPage,
  linksPage,
  sizedFile,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { sendDelete, signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

/**
 * The report calls of SPEC §7 over HTTP, against one finished scan of a small site whose every
 * answer is known: two broken targets (/missing from two pages, /error from one), a missing
 * anchor, two SEO rule findings' kinds and three file types.
 */
describe.each(testDialects())('reports over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let owner: { email: string; token: string };
  let scanId: string;

  beforeAll(async () => {
    site = await startTestSite({
      // No <title>: rule 4001 (Title missing) on / and /ok.
      '/': linksPage(['/about', '/ok', '/missing', '/error', '/big.bin', '/about#team']),
      // "Hi" is too short a title: rule 4003.
      '/about': htmlPage(
        '<a href="/missing">gone</a>\n<a href="/">home</a>\n<img src="/logo.png" alt="logo">',
        '<title>Hi</title>',
      ),
      '/ok': 'fine',
      '/error': { status: 500, body: 'oops' },
      '/big.bin': sizedFile(3000, 'application/octet-stream'),
      '/logo.png': sizedFile(1200, 'image/png'),
    });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ADMIN_EMAILS: `auditor-${dialect}@example.com` },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    // Rules and anchors need a paid plan.
    owner = await signUp(api, 'owner');
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: {
          url: site.url('/'),
          scanDepth: 3,
          checkAnchors: true,
          // 5002 (Zoom disabled) finds nothing here: its category still has a doughnut.
          selectedRules: [4001, 4003, 5002],
        },
      },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    scanId = String(created.body.id);
    await waitForScan(api, owner.token, scanId, (scan) => scan.status === ScanStatus.Complete);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  const read = (path: string, token: string | undefined = owner.token) => api.get(path, token);

  /** Only the status: CSV exports and JSON alike. */
  async function statusOf(path: string, token?: string): Promise<number> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** A CSV export as the browser downloads it: headers and the raw bytes decoded as UTF-8. */
  async function download(path: string, token = owner.token) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      disposition: response.headers.get('content-disposition'),
      bytes,
      text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
    };
  }

  const brokenLink = (target: string, source: string, line: number) => ({
    targetUri: site.url(target),
    sourceUri: site.url(source),
    statusCode: target === '/error' ? 500 : 404,
    failureReason: target === '/error' ? 'Internal Server Error' : 'Not Found',
    statusDetail: target === '/error' ? '500 Internal Server Error' : '404 Not Found',
    referenceCount: target === '/error' ? 1 : 2,
    element: 'a',
    line,
    column: 1,
    anchor: null,
    // No page of the site is near /missing, and /error is no page's address (issue 27).
    suggestion: null,
  });
  /** The link to /about#team: a working page without that id, a broken anchor. */
  const brokenAnchor = () => ({
    targetUri: site.url('/about#team'),
    sourceUri: site.url('/'),
    statusCode: 200,
    failureReason: 'Broken Anchor',
    statusDetail: 'Anchor #team not found',
    errorMessage: null,
    referenceCount: 2,
    element: 'a',
    line: 8,
    column: 1,
    anchor: '#team',
    // /about has no id at all: no closest one (issue 27).
    suggestion: null,
  });
  const reasonFilters = [
    { name: 'Not Found', value: 'Not Found', count: 2, allRules: 3 },
    { name: 'Internal Server Error', value: 'Internal Server Error', count: 1, allRules: 3 },
    { name: 'Broken Anchor', value: 'Broken Anchor', count: 1, allRules: 3 },
  ];

  it('summarises the scan: totals, reasons, sizes, types, rule categories and samples', async () => {
    const summary = await read(`/api/report/summary/${scanId}`);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      scanId,
      url: site.url('/'),
      status: ScanStatus.Complete,
      numPages: 3,
      totalLinks: 9,
      uniqueLinks: 7,
      badLinks: 3,
      uniqueBadLinks: 2,
      // From the engine's stored summary (summary_json).
      brokenAnchors: 1,
      duplicateAnchors: 0,
      certificateProblems: 0,
      fattestPages: 0,
      // One count of broken links by reason: the pie, the sample list and the PDF read it, so
      // the broken anchor is among them (issue 37).
      reasons: [
        { failureReason: 'Not Found', numberOfReferences: 2 },
        { failureReason: 'Internal Server Error', numberOfReferences: 1 },
        { failureReason: 'Broken Anchor', numberOfReferences: 1 },
      ],
      pageSizeBuckets: [
        { label: '< 1 MB', pages: 3 },
        { label: '1-2 MB', pages: 0 },
        { label: '2-3 MB', pages: 0 },
        { label: '3-4 MB', pages: 0 },
        { label: '4-5 MB', pages: 0 },
        { label: '> 5 MB', pages: 0 },
      ],
      contentTypeSizes: [
        { contentType: 'application/octet-stream', count: 1, totalSize: 3000 },
        { contentType: 'image/png', count: 1, totalSize: 1200 },
        { contentType: 'text/html; charset=utf-8', count: 3, totalSize: 397 },
      ],
      // Three pages × two rules: three page/rule pairs failed, three passed. A category whose
      // rules found nothing passed every check (issue 37): three pages × one rule.
      ruleCategories: [
        { categoryID: 4, name: 'SEO', passed: 3, failed: 3 },
        { categoryID: 5, name: 'User Experience', passed: 3, failed: 0 },
      ],
      logMessage: null,
    });
    expect(summary.body.duration).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(summary.body.scanSettingsJson as string)).toMatchObject({
      url: site.url('/'),
      checkAnchors: true,
      selectedRules: [4001, 4003, 5002],
    });
    // The settings as asked for: the plan's resolved link limit is the server's own business.
    expect(JSON.parse(summary.body.scanSettingsJson as string)).not.toHaveProperty('linkLimit');
    expect(summary.body.brokenSamples).toEqual([
      {
        failureReason: 'Not Found',
        links: [brokenLink('/missing', '/', 5), brokenLink('/missing', '/about', 3)].map(
          (link) => ({ ...link, errorMessage: '404 Not Found' }),
        ),
      },
      {
        failureReason: 'Internal Server Error',
        links: [{ ...brokenLink('/error', '/', 6), errorMessage: '500 Internal Server Error' }],
      },
      // Broken anchors are sampled after the failure reasons of SPEC §8.
      { failureReason: 'Broken Anchor', links: [brokenAnchor()] },
    ]);
    const samples = summary.body.ruleSamples as Array<{ uri: string; ruleId: string }>;
    expect(samples.map((sample) => [sample.uri, sample.ruleId])).toEqual([
      [site.url('/'), '4001'],
      [site.url('/ok'), '4001'],
      [site.url('/about'), '4003'],
    ]);
  });

  it('pages, sorts and filters the link report, with its failure reasons as filter categories', async () => {
    const all = await read(`/api/report/link/${scanId}`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      groups: null,
      total: 4,
      page: 1,
      pageSize: 50,
      filterCategories: reasonFilters,
    });
    // By target: the anchor's target is the page /about.
    expect(all.body.lists).toEqual([
      brokenAnchor(),
      { ...brokenLink('/error', '/', 6), errorMessage: '500 Internal Server Error' },
      { ...brokenLink('/missing', '/', 5), errorMessage: '404 Not Found' },
      { ...brokenLink('/missing', '/about', 3), errorMessage: '404 Not Found' },
    ]);

    const second = await read(`/api/report/link/${scanId}?pageSize=3&page=2`);
    expect(second.body).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(second.body.lists).toMatchObject([{ sourceUri: site.url('/about'), line: 3 }]);

    const targets = async (query: string) =>
      ((await read(`/api/report/link/${scanId}?${query}`)).body.lists as LinkRowSeen[]).map(
        (row) => `${row.targetUri} ← ${row.sourceUri}`,
      );
    const from = (target: string, source: string) => `${site.url(target)} ← ${site.url(source)}`;
    expect(await targets('sortBy=targetUri&sortOrder=desc')).toEqual([
      from('/missing', '/'),
      from('/missing', '/about'),
      from('/error', '/'),
      from('/about#team', '/'),
    ]);
    expect(await targets('sortBy=line')).toEqual([
      from('/missing', '/about'),
      from('/missing', '/'),
      from('/error', '/'),
      from('/about#team', '/'),
    ]);
    // The anchor's own filter category, as a client following SPEC sends it.
    expect(await targets('reason=Broken%20Anchor')).toEqual([from('/about#team', '/')]);
    expect(await targets('reason=Not%20Found')).toEqual([
      from('/missing', '/'),
      from('/missing', '/about'),
    ]);
    expect(await targets(`source=${encodeURIComponent(site.url('/about'))}`)).toEqual([
      from('/missing', '/about'),
    ]);
    expect(await targets(`target=${encodeURIComponent(site.url('/error'))}`)).toEqual([
      from('/error', '/'),
    ]);

    const anchors = await read(`/api/report/link/${scanId}?status=anchor`);
    expect(anchors.body.total).toBe(1);
    expect(anchors.body.lists).toMatchObject([
      {
        targetUri: site.url('/about#team'),
        sourceUri: site.url('/'),
        statusDetail: 'Anchor #team not found',
        anchor: '#team',
      },
    ]);
    expect((await read(`/api/report/link/${scanId}?status=all`)).body.total).toBe(9);
    expect((await read(`/api/report/link/${scanId}?status=ok`)).body.total).toBe(6);
  });

  it('groups the link report by target, source page or reason, one page of groups at a time', async () => {
    const groups = async (query: string) => {
      const answer = await read(`/api/report/link/${scanId}?${query}`);
      expect(answer.body.lists).toEqual([]);
      return { groups: answer.body.groups as unknown, total: answer.body.total as number };
    };
    const byCount = await groups('groupBy=target&sortBy=count&sortOrder=desc');
    expect(byCount.total).toBe(3);
    expect((byCount.groups as unknown[])[0]).toEqual({ key: site.url('/missing'), count: 2 });
    expect(byCount.groups).toEqual(
      expect.arrayContaining([
        { key: site.url('/error'), count: 1 },
        { key: site.url('/about'), count: 1 },
      ]),
    );
    expect(await groups('groupBy=source')).toEqual({
      groups: [
        { key: site.url('/'), count: 3 },
        { key: site.url('/about'), count: 1 },
      ],
      total: 2,
    });
    expect(await groups('groupBy=reason')).toEqual({
      groups: [
        { key: 'Broken Anchor', count: 1 },
        { key: 'Internal Server Error', count: 1 },
        { key: 'Not Found', count: 2 },
      ],
      total: 3,
    });
    expect(await groups('groupBy=target&pageSize=1&page=2')).toEqual({
      groups: [{ key: site.url('/error'), count: 1 }],
      total: 3,
    });
  });

  it('reports pages (biggest first), rule results by category and file types', async () => {
    const pages = await read(`/api/report/page/${scanId}`);
    // The page tab's filter offers the pages' content types, and filters by them.
    expect(pages.body).toMatchObject({
      total: 3,
      filterCategories: [
        { name: 'text/html; charset=utf-8', value: 'text/html; charset=utf-8', count: 3 },
      ],
    });
    const htmlOnly = `?category=${encodeURIComponent('text/html; charset=utf-8')}`;
    expect((await read(`/api/report/page/${scanId}${htmlOnly}`)).body.total).toBe(3);
    expect((await read(`/api/report/page/${scanId}?category=image%2Fpng`)).body.total).toBe(0);
    expect(pages.body.lists).toMatchObject([
      {
        uri: site.url('/about'),
        statusCode: 200,
        contentSize: 1356,
        htmlSize: 156,
        title: 'Hi',
        depth: 2,
        contents: expect.arrayContaining([{ contentType: 'image/png', totalSize: 1200 }]),
      },
      { uri: site.url('/'), contentSize: 237, title: null, depth: 1 },
      { uri: site.url('/ok'), contentSize: 4, depth: 2 },
    ]);
    const byUri = await read(`/api/report/page/${scanId}?sortBy=uri&sortOrder=desc`);
    expect((byUri.body.lists as Array<{ uri: string }>).map((page) => page.uri)).toEqual([
      site.url('/ok'),
      site.url('/about'),
      site.url('/'),
    ]);

    const rules = await read(`/api/report/ruleResult/${scanId}`);
    expect(rules.body).toMatchObject({
      total: 3,
      filterCategories: [{ name: 'SEO', value: '4', count: 3, allRules: 2 }],
    });
    expect(rules.body.lists).toEqual([
      {
        uri: site.url('/'),
        ruleId: '4001',
        ruleName: 'Title missing',
        ruleCategoryID: 4,
        // The catalogue's note and page (GET /api/ScanRuleApi/); what this finding says apart.
        ruleNote: 'The page has no <title>, or an empty one.',
        ruleURL: '/rules/4001',
        line: 2,
        column: 7,
        snippet: '<head></head>',
        message: 'No <title> element',
      },
      expect.objectContaining({ uri: site.url('/ok'), ruleId: '4001', snippet: 'fine' }),
      expect.objectContaining({
        uri: site.url('/about'),
        ruleId: '4003',
        ruleName: 'Title too short',
        ruleNote: 'The title has fewer than 10 characters, too few to describe the page.',
        ruleURL: '/rules/4003',
        message: '2 characters',
        snippet: '<title>Hi</title>',
      }),
    ]);
    expect((await read(`/api/report/ruleResult/${scanId}?category=4`)).body.total).toBe(3);
    expect((await read(`/api/report/ruleResult/${scanId}?category=5`)).body).toMatchObject({
      total: 0,
      lists: [],
    });

    const types = await read(`/api/report/fileType/${scanId}?pageSize=2`);
    expect(types.body).toMatchObject({
      total: 3,
      pageSize: 2,
      lists: [
        { contentType: 'application/octet-stream', count: 1, totalSize: 3000 },
        { contentType: 'image/png', count: 1, totalSize: 1200 },
      ],
    });
    expect(types.body.filterCategories).toHaveLength(3);
    const lastPage = await read(`/api/report/fileType/${scanId}?pageSize=2&page=2`);
    expect(lastPage.body.lists).toEqual([
      { contentType: 'text/html; charset=utf-8', count: 3, totalSize: 397 },
    ]);
    // Choosing a type keeps that type only; the choices stay all three.
    const png = await read(`/api/report/fileType/${scanId}?category=image%2Fpng`);
    expect(png.body).toMatchObject({
      total: 1,
      lists: [{ contentType: 'image/png', count: 1, totalSize: 1200 }],
    });
    expect(png.body.filterCategories).toHaveLength(3);
  });

  it('exports each tab as CSV: every row matching the filter, UTF-8 with BOM', async () => {
    const link = await download(`/api/report/link/${scanId}?format=csv&pageSize=1`);
    expect(link.status).toBe(200);
    expect(link.contentType).toContain('text/csv');
    expect(link.disposition).toBe(`attachment; filename="scan-${scanId}-link.csv"`);
    expect([...link.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const url = (path: string) => site.url(path);
    expect(link.text).toBe(
      '\uFEFFTarget,Source,Status code,Failure reason,Status detail,References,Line,Column,Suggested fix\r\n' +
        `${url('/about#team')},${url('/')},200,Broken Anchor,Anchor #team not found,2,8,1,\r\n` +
        `${url('/error')},${url('/')},500,Internal Server Error,500 Internal Server Error,1,6,1,\r\n` +
        `${url('/missing')},${url('/')},404,Not Found,404 Not Found,2,5,1,\r\n` +
        `${url('/missing')},${url('/about')},404,Not Found,404 Not Found,2,3,1,\r\n`,
    );
    const filtered = await download(
      `/api/report/link/${scanId}?format=csv&reason=Internal%20Server%20Error`,
    );
    expect(filtered.text.split('\r\n')).toHaveLength(3);

    const rules = await download(`/api/report/ruleResult/${scanId}?format=csv`);
    expect(rules.disposition).toBe(`attachment; filename="scan-${scanId}-ruleResult.csv"`);
    expect(rules.text).toBe(
      '\uFEFFPage,Rule,Category,Line,Column,Snippet,Message,Note,Rule URL\r\n' +
        `${url('/')},Title missing,SEO,2,7,<head></head>,No <title> element,` +
        `"The page has no <title>, or an empty one.",/rules/4001\r\n` +
        `${url('/ok')},Title missing,SEO,1,1,fine,No <title> element,` +
        `"The page has no <title>, or an empty one.",/rules/4001\r\n` +
        `${url('/about')},Title too short,SEO,2,13,<title>Hi</title>,2 characters,` +
        `"The title has fewer than 10 characters, too few to describe the page.",/rules/4003\r\n`,
    );
    const pages = await download(`/api/report/page/${scanId}?format=csv`);
    expect(pages.text).toBe(
      '\uFEFFPage,Status code,Total bytes,HTML bytes,Title,Page rank\r\n' +
        `${url('/about')},200,1356,156,Hi,\r\n${url('/')},200,237,237,,\r\n${url('/ok')},200,4,4,,\r\n`,
    );
    const types = await download(`/api/report/fileType/${scanId}?format=csv`);
    expect(types.text).toBe(
      '\uFEFFContent type,Files,Bytes\r\napplication/octet-stream,1,3000\r\n' +
        'image/png,1,1200\r\ntext/html; charset=utf-8,3,397\r\n',
    );
  });

  it("answers the live broken-links summary of the owner's scan", async () => {
    const live = await read(`/reports/BrokenLinksSummary/${scanId}`);
    expect(live.status).toBe(200);
    expect(live.body).toEqual({
      status: ScanStatus.Complete,
      logMessage: null,
      badLinks: 3,
      uniqueBadLinks: 2,
      totalLinks: 9,
      uniqueLinks: 7,
      reasons: [
        { failureReason: 'Not Found', numberOfReferences: 2 },
        { failureReason: 'Internal Server Error', numberOfReferences: 1 },
      ],
      links: [
        {
          targetUri: site.url('/missing'),
          statusCode: 404,
          failureReason: 'Not Found',
          referenceCount: 2,
        },
        {
          targetUri: site.url('/error'),
          statusCode: 500,
          failureReason: 'Internal Server Error',
          referenceCount: 1,
        },
      ],
    });
  });

  it('shows a report to its owner and to admins only: 404 for everyone else, 401 without a token where one is required', async () => {
    const other = await signUp(api, 'other');
    const paths = [
      `/api/report/summary/${scanId}`,
      `/api/report/link/${scanId}`,
      `/api/report/page/${scanId}`,
      `/api/report/ruleResult/${scanId}`,
      `/api/report/fileType/${scanId}`,
      `/api/report/link/${scanId}?format=csv`,
      `/reports/BrokenLinksSummary/${scanId}`,
    ];
    const admin = await signUp(api, 'auditor', `auditor-${dialect}@example.com`);
    for (const path of paths) {
      expect(await statusOf(path, other.token), path).toBe(404);
      expect(await statusOf(path, 'not-a-token'), path).toBe(401);
      expect(await statusOf(path, admin.token), path).toBe(200);
    }
    // A visitor may read only the sample report; any other id looks like no scan at all.
    expect((await api.get(`/api/report/summary/${scanId}`)).status).toBe(404);
    expect((await api.get(`/api/report/link/${scanId}`)).status).toBe(404);
    expect((await api.get(`/reports/BrokenLinksSummary/${scanId}`)).status).toBe(401);
    expect((await read(`/api/report/summary/${crypto.randomUUID()}`)).status).toBe(404);

    // A scan in the trash has no report, for its owner too.
    const { token } = await signUp(api, 'trasher');
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/ok'), scanDepth: 1 } },
      token,
    );
    const trashedId = String(created.body.id);
    await waitForScan(api, token, trashedId, (scan) => scan.status === ScanStatus.Complete);
    expect((await read(`/api/report/summary/${trashedId}`, token)).status).toBe(200);
    expect(
      (await sendDelete(server.baseUrl, `/api/ScanApi/Trash?id=${trashedId}`, token)).status,
    ).toBe(200);
    expect((await read(`/api/report/summary/${trashedId}`, token)).status).toBe(404);
  });

  it('says why a scan failed: in the scan, its report summary and its broken-links summary', async () => {
    // A port nothing listens on: the start page's request is refused (issue 37).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: `http://127.0.0.1:${port}/` } },
      owner.token,
    );
    const id = String(created.body.id);
    await waitForScan(api, owner.token, id, (scan) => scan.status === ScanStatus.Failed);
    const why = startPageFailure(requestFailureTexts.ECONNREFUSED);
    const scans = (await read('/api/ScanApi/Get')).body as unknown as Array<
      Record<string, unknown>
    >;
    expect(scans.find((scan) => scan.id === id)).toMatchObject({ logMessage: why });
    expect((await read(`/api/report/summary/${id}`)).body).toMatchObject({
      status: ScanStatus.Failed,
      logMessage: why,
    });
    expect((await read(`/reports/BrokenLinksSummary/${id}`)).body).toMatchObject({
      status: ScanStatus.Failed,
      logMessage: why,
    });
  });

  it('refuses bad query values with 400 and the field in modelState', async () => {
    const probes: Array<[string, string]> = [
      ['link', 'page=0'],
      ['link', 'page=abc'],
      ['link', 'pageSize=0'],
      ['link', 'pageSize=1001'],
      ['link', 'sortBy=colour'],
      ['link', 'sortOrder=sideways'],
      ['link', 'status=lost'],
      ['link', 'groupBy=page'],
      ['link', 'format=pdf'],
      ['link', `reason=${'x'.repeat(61)}`],
      ['page', 'sortBy=size'],
      ['ruleResult', 'category=SEO'],
      ['fileType', 'pageSize=-5'],
    ];
    for (const [tab, query] of probes) {
      const field = query.slice(0, query.indexOf('='));
      const answer = await read(`/api/report/${tab}/${scanId}?${query}`);
      expect(answer.status, `${tab}?${query}`).toBe(400);
      expect(answer.body.message).toBe(requestMessages.invalidRequest);
      expect(Object.keys(answer.body.modelState as object), `${tab}?${query}`).toEqual([field]);
    }
    // Ids are at most 64 characters; a shorter unknown one is simply not found.
    expect((await read('/api/report/summary/not-a-scan-id')).status).toBe(404);
    const badId = await read(`/api/report/summary/${'x'.repeat(65)}`);
    expect(badId.status).toBe(400);
    expect(Object.keys(badId.body.modelState as object)).toEqual(['id']);
  });
});

interface LinkRowSeen {
  targetUri: string;
  sourceUri: string;
}
