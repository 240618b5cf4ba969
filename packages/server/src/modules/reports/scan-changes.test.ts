import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus, type ScanChanges } from '@linkaudit/core';
import {
  fastEngineOptions,
  startTestSite,
  testCertificates,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, userIdOf, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';
import { newProblemCounts } from './scan-changes.js';

/**
 * Changes since the previous scan (issue 27) across three scans of a site that changes between
 * them: broken links, a broken anchor, an invalid certificate and a rule finding are new, still
 * (with the date they were first seen), fixed (their place is still there) or removed (it is not:
 * the link was taken off its page, issue 37).
 */
describe.each(testDialects())('changes since the previous scan (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: Server;
  let base: string;
  let selfSigned: TestSite;
  let owner: { email: string; token: string };
  let home: { title: boolean; links: string[] };
  /** Whether /c answers (from the third scan on). */
  let fixedC = false;
  const scans: string[] = [];
  const bossEmail = `boss-changes-${dialect}@example.com`;

  beforeAll(async () => {
    selfSigned = await startTestSite(
      { '/x.html': 'self-signed' },
      { tls: testCertificates().selfSigned },
    );
    site = createServer((request, response) => {
      const at = request.url ?? '/';
      const title = home.title ? '<title>Home page</title>' : '';
      const links = home.links.map((href) => `<a href="${href}">${href}</a>`).join('\n');
      if (at === '/')
        response.writeHead(200, { 'content-type': 'text/html' }).end(`${title}\n${links}`);
      else if (at === '/c' && fixedC)
        response.writeHead(200, { 'content-type': 'text/html' }).end('<title>C page</title>');
      else if (at === '/guide.html')
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<title>Guide</title><h2 id="usage">Use</h2>');
      else response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ADMIN_EMAILS: bossEmail },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'owner');
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
  });
  afterAll(async () => {
    await server.stop();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
    await selfSigned.close();
  });

  async function scanNow(): Promise<string> {
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: {
          url: `${base}/`,
          scanDepth: 3,
          checkAnchors: true,
          selectedRules: [4001],
        },
      },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);
    await waitForScan(api, owner.token, id, (scan) => scan.status === ScanStatus.Complete);
    scans.push(id);
    return id;
  }

  async function changes(id: string, query = ''): Promise<ScanChanges> {
    const response = await api.get(`/api/report/changes/${id}?pageSize=100${query}`, owner.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as ScanChanges;
  }

  const summary = (result: ScanChanges) =>
    result.rows.map((row) => [row.state, row.kind, row.target.replace(base, '')]);

  it('calls every problem of the first scan new', async () => {
    home = {
      title: false,
      links: ['/a', '/b', '/guide.html#nope', selfSigned.url('/x.html')],
    };
    const first = await changes(await scanNow());
    expect(first.previousScanId).toBeNull();
    // The link to the self-signed page is broken (Invalid Certificate) and its host's
    // certificate a problem of its own.
    expect(first.counts).toEqual({ new: 6, still: 0, fixed: 0, removed: 0 });
    expect(summary(first)).toEqual([
      ['new', 'anchor', '/guide.html#nope'],
      ['new', 'certificate', new URL(selfSigned.url('/')).host],
      ['new', 'link', '/a'],
      ['new', 'link', '/b'],
      ['new', 'link', selfSigned.url('/x.html')],
      ['new', 'rule', '/'],
    ]);
  });

  it('tells new, still (first seen in the first scan), fixed and removed apart in the second', async () => {
    home = { title: true, links: ['/b', '/c', '/guide.html#nope'] };
    const second = await changes(await scanNow());
    expect(second.previousScanId).toBe(scans[0]);
    expect(second.counts).toEqual({ new: 1, still: 2, fixed: 1, removed: 3 });
    // The home page got its title: fixed. The links to /a and to the self-signed host were
    // taken off the page: removed, not fixed (issue 37).
    expect(summary(second)).toEqual([
      ['new', 'link', '/c'],
      ['still', 'anchor', '/guide.html#nope'],
      ['still', 'link', '/b'],
      ['fixed', 'rule', '/'],
      ['removed', 'certificate', new URL(selfSigned.url('/')).host],
      ['removed', 'link', '/a'],
      ['removed', 'link', selfSigned.url('/x.html')],
    ]);
    const first = await api.get('/api/ScanApi/Get', owner.token);
    const completed = (first.body as Array<{ id: string; dateCompleted: string }>).find(
      (scan) => scan.id === scans[0],
    )?.dateCompleted;
    const stillB = second.rows.find((row) => row.target === `${base}/b`);
    expect(new Date(stillB?.firstSeen ?? 0).getTime()).toBe(new Date(completed ?? 1).getTime());
    // Filters: by state and by kind.
    expect(summary(await changes(scans[1]!, '&state=removed&kind=link'))).toEqual([
      ['removed', 'link', '/a'],
      ['removed', 'link', selfSigned.url('/x.html')],
    ]);
  });

  it('keeps the first-seen date through the third, and a problem back again is new', async () => {
    // /c answers now, so the link to it is fixed.
    home = { title: true, links: ['/a', '/b', '/c', '/guide.html#nope'] };
    fixedC = true;
    const third = await changes(await scanNow());
    expect(third.previousScanId).toBe(scans[1]);
    expect(third.counts).toEqual({ new: 1, still: 2, fixed: 1, removed: 0 });
    expect(summary(third)).toEqual([
      ['new', 'link', '/a'],
      ['still', 'anchor', '/guide.html#nope'],
      ['still', 'link', '/b'],
      ['fixed', 'link', '/c'],
    ]);
    const second = await changes(scans[1]!);
    const firstSeenOf = (result: ScanChanges, target: string) =>
      result.rows.find((row) => row.target === `${base}${target}`)?.firstSeen;
    expect(firstSeenOf(third, '/b')).toBe(firstSeenOf(second, '/b'));
    expect(firstSeenOf(third, '/a')).not.toBe(firstSeenOf(await changes(scans[0]!), '/a'));
  });

  it("counts each run's new problems for a schedule's history chart", async () => {
    const scope = { userId: await userIdOf(server.database.db, owner.email), site: `${base}/` };
    expect(await newProblemCounts(server.database.db, scope, scans)).toEqual([null, 1, 1]);
    // Against the third, the first had the self-signed link, its certificate and the rule finding.
    expect(await newProblemCounts(server.database.db, scope, [scans[2]!, scans[0]!])).toEqual([
      null,
      3,
    ]);
  });

  it('exports the changes as CSV, with the filters of the tab', async () => {
    const response = await fetch(
      `${server.baseUrl}/api/report/changes/${scans[1]}?format=csv&state=removed`,
      { headers: { authorization: `Bearer ${owner.token}` } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('State,Kind,Problem,Rule,Rule id,First seen,Mark,Note');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(' '))).toEqual([
      `removed certificate ${new URL(selfSigned.url('/')).host}`,
      `removed link ${base}/a`,
      `removed link ${selfSigned.url('/x.html')}`,
    ]);
  });

  it("keeps a scan's changes when an operator requeues an earlier scan (issue 37)", async () => {
    const before = await changes(scans[2]!);
    const boss = await signUp(api, 'boss', bossEmail);
    const old = (await api.get('/api/ScanApi/Get', owner.token)).body as Array<{
      id: string;
      dateCompleted: string;
    }>;
    const completed = old.find((scan) => scan.id === scans[1])?.dateCompleted;
    // The second scan runs again on today's site, whose problems are the third's.
    const requeued = await api.send('PUT', '/api/admin/Requeue/', { id: scans[1] }, boss.token);
    expect(requeued.status, JSON.stringify(requeued.body)).toBe(200);
    await waitForScan(
      api,
      owner.token,
      scans[1]!,
      (scan) =>
        scan.status === ScanStatus.Complete &&
        (scan as { dateCompleted?: string }).dateCompleted !== completed,
    );
    expect(await changes(scans[2]!)).toEqual(before);
  });

  it('answers only the owner', async () => {
    const stranger = await signUp(api, 'stranger');
    const response = await api.get(`/api/report/changes/${scans[0]}`, stranger.token);
    expect(response.status).toBe(404);
    const bad = await api.get(`/api/report/changes/${scans[0]}?state=gone`, owner.token);
    expect(bad.status).toBe(400);
  });
});
