import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinishedStatus, ScanStatus } from '@linkaudit/core';
import { fastEngineOptions } from '@linkaudit/engine/test-support';
import { systemClock } from '../../clock.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { SampleReportService } from './sample-report.service.js';

describe.each(testDialects())('sample report (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: string;
  let scanId: string;

  beforeAll(async () => {
    // Nothing allow-listed, private targets refused: only the sample scan may reach 127.0.0.1.
    server = await startTestServer(dialect, { SAMPLE_REPORT: '1' }, fastEngineOptions);
    api = apiClient(server.baseUrl);
    site = `${server.baseUrl}/sample-site/`;
    scanId = await waitForSampleScan();
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Polls as a visitor (no token) until the sample scan is recorded and finished. */
  async function waitForSampleScan(): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await api.get('/api/report/SampleSiteScanId');
      if (answer.status === 200) {
        const summary = await api.get(`/api/report/summary/${answer.body.scanId}`);
        if (isFinishedStatus(Number(summary.body.status))) return String(answer.body.scanId);
      } else {
        expect(answer.status).toBe(404);
      }
      if (Date.now() > deadline) throw new Error('the sample scan did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('scans its own demo site at first start; a visitor reads the summary', async () => {
    const summary = await api.get(`/api/report/summary/${scanId}`);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      scanId,
      url: site,
      status: ScanStatus.Complete,
      numPages: 4,
      badLinks: 6,
      uniqueBadLinks: 3,
      brokenAnchors: 1,
      duplicateAnchors: 1,
      fattestPages: 1,
    });
    expect(summary.body.reasons).toEqual([
      { failureReason: 'Not Found', numberOfReferences: 5 },
      { failureReason: 'Invalid Remote Name', numberOfReferences: 1 },
      // The broken anchor under its own reason: the pie and the list read one count (issue 37).
      { failureReason: 'Broken Anchor', numberOfReferences: 1 },
    ]);
    const buckets = summary.body.pageSizeBuckets as Array<{ pages: number }>;
    expect(buckets.map((bucket) => bucket.pages)).toEqual([3, 0, 1, 0, 0, 0]);
    const settings = JSON.parse(summary.body.scanSettingsJson as string);
    expect(settings).toMatchObject({ checkAnchors: true, scanDepth: 2 });
    expect(settings.selectedRules.length).toBeGreaterThan(50);
  });

  it('reports exactly the broken links, the missing anchor and the rule violations', async () => {
    const byTarget = await api.get(`/api/report/link/${scanId}?groupBy=target`);
    expect(byTarget.body.groups).toEqual([
      { key: `${site}contact.html`, count: 4 },
      { key: `${site}images/team.jpg`, count: 1 },
      // The page of the broken anchor #oolong.
      { key: `${site}teas.html`, count: 1 },
      { key: 'http://shop.harbour-tea.invalid/', count: 1 },
    ]);
    const broken = await api.get(`/api/report/link/${scanId}?pageSize=100`);
    const outcomes = new Set(
      (broken.body.lists as Array<Record<string, unknown>>).map((row) =>
        JSON.stringify([row.targetUri, row.element, row.statusCode, row.failureReason]),
      ),
    );
    expect([...outcomes].sort()).toEqual(
      [
        [`${site}contact.html`, 'a', 404, 'Not Found'],
        [`${site}images/team.jpg`, 'img', 404, 'Not Found'],
        ['http://shop.harbour-tea.invalid/', 'a', null, 'Invalid Remote Name'],
        // The broken anchor is a broken link of its own kind (issue 23).
        [`${site}teas.html#oolong`, 'a', 200, 'Broken Anchor'],
      ]
        .map((row) => JSON.stringify(row))
        .sort(),
    );

    const anchors = await api.get(`/api/report/link/${scanId}?status=anchor`);
    expect(anchors.body.lists).toEqual([
      expect.objectContaining({
        targetUri: `${site}teas.html#oolong`,
        sourceUri: site,
        statusDetail: 'Anchor #oolong not found',
      }),
    ]);
    const moved = await api.get(
      `/api/report/link/${scanId}?status=all&target=${encodeURIComponent(`${site}old-shop`)}`,
    );
    expect(moved.body.lists).toEqual([
      expect.objectContaining({ statusDetail: 'OK', errorMessage: null }),
    ]);

    const pages = await api.get(`/api/report/page/${scanId}`);
    expect(pages.body.lists[0]).toMatchObject({ uri: `${site}gallery.html` });
    expect(pages.body.lists[0].contentSize).toBeGreaterThan(2 * 1048576);

    const rules = await api.get(`/api/report/ruleResult/${scanId}?pageSize=500`);
    const violations = (rules.body.lists as Array<{ uri: string; ruleName: string }>).map(
      (row) => `${row.uri.replace(site, '')} ${row.ruleName}`,
    );
    expect(violations).toEqual(
      expect.arrayContaining([
        'about.html Title missing',
        'about.html Image without alt attribute',
        'teas.html Duplicate id',
      ]),
    );
    expect(violations).not.toContain('teas.html Title missing');

    const csv = await fetch(`${server.baseUrl}/api/report/link/${scanId}?format=csv`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(`${site}images/team.jpg`);
  });

  it('opens the address guard for the sample scan only, and queues it once', async () => {
    const { token } = await signUp(api);
    const own = await api.post('/api/ScanApi/', { scanSettings: { url: site } }, token);
    expect(own.status).toBe(400);
    expect(own.body.message).toContain('private network');

    expect(await api.get(`/api/report/summary/${crypto.randomUUID()}`)).toMatchObject({
      status: 404,
    });

    const samples = new SampleReportService({
      db: server.database.db,
      clock: systemClock,
      policy: { allowPrivate: false, allowedHosts: [] },
      wakeWorkers: () => undefined,
    });
    expect(await samples.ensureQueued(server.baseUrl)).toBe(scanId);
    const scans = await server.database.db.selectFrom('scans').select(['id', 'attempts']).execute();
    expect(scans).toEqual([{ id: scanId, attempts: 1 }]);
  });

  it('serves the demo site: pages, a generated 2.5 MB photo, a redirect and real 404s', async () => {
    const home = await fetch(site);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(await home.text()).toContain('Harbour Tea Company');
    const photo = await fetch(`${site}warehouse-photo.jpg`, { method: 'HEAD' });
    expect(Number(photo.headers.get('content-length'))).toBeGreaterThan(2 * 1048576);
    const moved = await fetch(`${site}old-shop`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/sample-site/teas.html');
    expect((await fetch(`${site}contact.html`)).status).toBe(404);
    expect((await fetch(`${site}../api/ScanApi/Get`)).status).toBe(401);
  });
});

describe('sample report switched off', () => {
  it('serves no demo site and answers 404 for the sample scan id', async () => {
    const server = await startTestServer('sqlite', { SAMPLE_REPORT: '0' });
    try {
      const api = apiClient(server.baseUrl);
      const answer = await api.get('/api/report/SampleSiteScanId');
      expect(answer).toMatchObject({ status: 404 });
      expect(answer.body.message).toBe('There is no sample report on this server yet.');
      // The path is the web app's again (here: not built, 503).
      const demo = await fetch(`${server.baseUrl}/sample-site/`);
      expect(demo.status).not.toBe(200);
      expect(await demo.text()).not.toContain('Harbour');
    } finally {
      await server.stop();
    }
  });
});
