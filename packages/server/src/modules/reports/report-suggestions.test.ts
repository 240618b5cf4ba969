import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus, type LinkRow } from '@linkaudit/core';
import {
  fastEngineOptions,
  htmlPage,
  redirect,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

/**
 * Suggested fixes (issue 27) through the server: worked out at the end of the scan, stored, and
 * read with the link tab's rows and in its CSV export (a last column). The kinds themselves are
 * proven on the engine's scenario site (engine/src/scenarios/suggestions.test.ts).
 */
describe.each(testDialects())('suggested fixes in the report (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let owner: { email: string; token: string };
  let scanId: string;

  beforeAll(async () => {
    site = await startTestSite({
      '/': htmlPage(
        [
          '<a href="/docs/getting-startd.html">Start</a>',
          '<a href="/moved">Moved</a>',
          '<a href="/guide.html#instalation">Install</a>',
          '<a href="/docs/getting-started.html">Start</a>',
          '<a href="/nowhere-at-all">x</a>',
        ].join('\n'),
      ),
      '/moved': redirect('/guide.html', 301),
      '/docs/getting-started.html': htmlPage('start'),
      '/guide.html': htmlPage('<h2 id="installation">Install</h2><h2 id="usage">Use</h2>'),
    });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'owner');
    // Anchors need a paid plan.
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/'), scanDepth: 3, checkAnchors: true } },
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

  async function rows(query: string): Promise<LinkRow[]> {
    const response = await api.get(`/api/report/link/${scanId}?${query}`, owner.token);
    expect(response.status).toBe(200);
    return (response.body as { lists: LinkRow[] }).lists;
  }

  it('gives each broken link its fix, and none where no candidate clearly wins', async () => {
    const broken = await rows('status=broken');
    const byTarget = new Map(broken.map((row) => [row.targetUri, row.suggestion]));
    expect(byTarget.get(site.url('/docs/getting-startd.html'))).toMatchObject({
      kind: 'closest-page',
      basis: 'path',
      url: site.url('/docs/getting-started.html'),
    });
    expect(byTarget.get(site.url('/guide.html#instalation'))).toMatchObject({
      kind: 'closest-anchor',
      url: `${site.url('/guide.html')}#installation`,
    });
    expect(byTarget.get(site.url('/nowhere-at-all'))).toBeNull();
  });

  it('gives a working link that redirects its final address (all links)', async () => {
    const all = await rows('status=all');
    expect(all.find((row) => row.targetUri === site.url('/moved'))?.suggestion).toEqual({
      kind: 'redirect',
      basis: 'redirect',
      url: site.url('/guide.html'),
      confidence: null,
      hops: 1,
    });
    // The anchor's fix is for the link to that #fragment only, not every link to its page.
    expect(all.find((row) => row.targetUri === site.url('/guide.html'))).toBeUndefined();
  });

  it('exports the fix in a last CSV column, the SPEC columns unchanged', async () => {
    const response = await fetch(`${server.baseUrl}/api/report/link/${scanId}?format=csv`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const lines = (await response.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Target,Source,Status code,Failure reason,Status detail,References,Line,Column,Suggested fix',
    );
    const startd = lines.find((line) => line.startsWith(site.url('/docs/getting-startd.html')));
    expect(startd).toMatch(
      new RegExp(
        `,1,\\d+,1,→ ${site.url('/docs/getting-started.html')} \\(\\d+%\\) Page not found; the page with the most similar address is the likely new home\\.$`,
      ),
    );
    const nowhere = lines.find((line) => line.startsWith(site.url('/nowhere-at-all')));
    expect(nowhere?.endsWith(',')).toBe(true);
  });
});
