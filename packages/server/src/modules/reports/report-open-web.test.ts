import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  fastEngineOptions,
  linksPage,
  redirect,
  startTestSite,
  statusOnly,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

/**
 * Open-web verdicts through the report (issue 35): links that could not be verified are stored
 * with their cause, counted apart in the summary (never among the bad links) and listed by the
 * link tab's `unverified` status, each cause a `reason`; soft 404s and login walls are working
 * links the link tab finds by their warning (`status=ok&reason=soft-404`).
 */
describe.each(testDialects())('open-web verdicts in the report (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let token: string;
  let scanId: string;

  beforeAll(async () => {
    site = await startTestSite({
      '/': linksPage(['/profile', '/members', '/blog/2019/gone', '/settings', '/missing']),
      '/profile': statusOnly(999),
      '/members': statusOnly(401, { 'www-authenticate': 'Basic realm="members"' }),
      '/blog/2019/gone': redirect('/'),
      '/settings': redirect('/login', 302),
      '/login': '<title>Sign in</title>',
    });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    ({ token } = await signUp(api, 'open-web'));
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') } },
      token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    scanId = String(created.body.id);
    await waitForScan(api, token, scanId, (scan) => scan.status === ScanStatus.Complete, 50_000);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  type Row = { targetUri: string; failureReason: string | null; statusCode: number | null };
  const rowsOf = async (query: string) => {
    const answer = await api.get(`/api/report/link/${scanId}?${query}`, token);
    expect(answer.status).toBe(200);
    return (answer.body as { lists: Row[] }).lists.map((row) => [
      new URL(row.targetUri).pathname,
      row.failureReason,
    ]);
  };

  it('counts unverified links apart from the broken ones, each with its cause', async () => {
    const summary = await api.get(`/api/report/summary/${scanId}`, token);
    expect(summary.body).toMatchObject({ uniqueBadLinks: 1, unverifiedLinks: 2 });
    expect(await rowsOf('status=broken')).toEqual([['/missing', 'Not Found']]);
    expect(await rowsOf('status=unverified')).toEqual([
      ['/members', 'needs-sign-in'],
      ['/profile', 'bot-protection'],
    ]);
    expect(await rowsOf('status=unverified&reason=bot-protection')).toEqual([
      ['/profile', 'bot-protection'],
    ]);
  });

  it('finds soft 404s and login walls among the working links by their warning', async () => {
    expect(await rowsOf('status=ok&reason=soft-404')).toEqual([['/blog/2019/gone', 'soft-404']]);
    expect(await rowsOf('status=ok&reason=login-wall')).toEqual([['/settings', 'login-wall']]);
  });
});
