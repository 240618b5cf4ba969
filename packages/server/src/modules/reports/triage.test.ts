import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ScanStatus,
  triageMessages,
  type LinkRow,
  type ReportSummary,
  type RuleRow,
  type Scan,
  type ScanChanges,
} from '@linkaudit/core';
import { fastEngineOptions } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, userIdOf, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';
import { newProblemCounts } from './scan-changes.js';
import { removeMark, setMark, siteMarks } from './triage.repository.js';

const run = promisify(execFile);

/**
 * Triage that lasts (issue 27): marks on a broken link, a broken anchor and a rule finding, what
 * they take out of each count (report, tabs, changes, scan list), and the mark carried to the
 * next scan of a site that changed in between.
 */
describe.each(testDialects())('triage of a scan’s problems (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: Server;
  let base: string;
  let owner: { email: string; token: string };
  let links: string[];
  const scans: string[] = [];

  beforeAll(async () => {
    site = createServer((request, response) => {
      const at = request.url ?? '/';
      const html = { 'content-type': 'text/html' };
      // The home page has no <title>: rule 4001 finds it on every scan.
      if (at === '/') response.writeHead(200, html).end(links.map(anchor).join('\n'));
      else if (at === '/guide.html')
        response.writeHead(200, html).end('<title>Guide</title><h2 id="usage">Use</h2>');
      else response.writeHead(404, html).end('<title>Not found</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
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
  });

  const anchor = (href: string) => `<a href="${href}">${href}</a>`;

  /** The PDF's text as poppler's pdftotext reads it. */
  async function textOfPdf(bytes: Buffer): Promise<string> {
    const work = await mkdtemp(join(tmpdir(), 'linkaudit-triage-pdf-'));
    try {
      await writeFile(join(work, 'report.pdf'), bytes);
      const { stdout } = await run('pdftotext', ['-layout', join(work, 'report.pdf'), '-']);
      return stdout;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async function scanNow(): Promise<string> {
    const created = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: { url: `${base}/`, scanDepth: 3, checkAnchors: true, selectedRules: [4001] },
      },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);
    await waitForScan(api, owner.token, id, (scan) => scan.status === ScanStatus.Complete);
    scans.push(id);
    return id;
  }

  async function read<Body>(path: string, token = owner.token): Promise<Body> {
    const response = await api.get(path, token);
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body as Body;
  }
  const linkTab = (id: string, query = '') =>
    read<{
      lists: LinkRow[];
      total: number;
      filterCategories: Array<{ name: string; count: number }>;
    }>(`/api/report/link/${id}?${query.includes('pageSize=') ? '' : 'pageSize=100'}${query}`);
  const ruleTab = (id: string, query = '') =>
    read<{ lists: RuleRow[]; total: number }>(`/api/report/ruleResult/${id}?pageSize=100${query}`);
  const summary = (id: string) => read<ReportSummary>(`/api/report/summary/${id}`);
  const listed = async (id: string) =>
    (await read<Scan[]>('/api/ScanApi/Get')).find((scan) => scan.id === id);
  const targets = (rows: LinkRow[]) => rows.map((row) => row.targetUri.replace(base, '')).sort();
  const mark = (id: string, body: Record<string, unknown>, token = owner.token) =>
    api.send('PUT', `/api/report/triage/${id}`, body, token);

  it('marks a broken link, a broken anchor and a finding; ignored ones leave every count', async () => {
    links = ['/a', '/a', '/b', '/guide.html#nope'];
    const id = await scanNow();
    const before = await summary(id);
    expect([before.badLinks, before.uniqueBadLinks, before.brokenAnchors]).toEqual([3, 2, 1]);
    expect(before.ignored).toBeUndefined();

    const ignored = await mark(id, {
      kind: 'link',
      target: `${base}/a`,
      mark: 'ignored',
      note: 'Removed on purpose; the page tells readers.',
    });
    expect(ignored.status, JSON.stringify(ignored.body)).toBe(200);
    expect(ignored.body).toMatchObject({ kind: 'link', mark: 'ignored', ruleId: null });
    const willFix = await mark(id, {
      kind: 'anchor',
      target: `${base}/guide.html#nope`,
      mark: 'willFix',
    });
    expect(willFix.status, JSON.stringify(willFix.body)).toBe(200);
    const finding = await mark(id, {
      kind: 'rule',
      target: `${base}/`,
      ruleId: '4001',
      mark: 'ignored',
    });
    expect(finding.status, JSON.stringify(finding.body)).toBe(200);

    // The default (open) view: /a is gone, the will-fix anchor stays with its mark.
    const open = await linkTab(id);
    expect(targets(open.lists)).toEqual(['/b', '/guide.html#nope']);
    expect(open.total).toBe(2);
    expect(open.lists.find((row) => row.targetUri.endsWith('#nope'))?.triage?.mark).toBe('willFix');
    expect(open.filterCategories.find((category) => category.name === 'Not Found')?.count).toBe(1);
    // Behind the filter, with the note.
    const behind = await linkTab(id, '&triage=ignored');
    expect(targets(behind.lists)).toEqual(['/a', '/a']);
    expect(behind.lists[0]?.triage?.note).toBe('Removed on purpose; the page tells readers.');
    expect(targets((await linkTab(id, '&triage=all')).lists)).toEqual([
      '/a',
      '/a',
      '/b',
      '/guide.html#nope',
    ]);
    expect(targets((await linkTab(id, '&triage=willFix')).lists)).toEqual(['/guide.html#nope']);
    // Every link (status all) less the ignored URL, page by page as deep pages find their start.
    const all = await linkTab(id, '&status=all');
    expect(all.lists.some((row) => row.targetUri === `${base}/a`)).toBe(false);
    const paged: string[] = [];
    for (let page = 1; page <= all.total; page++) {
      const one = await linkTab(id, `&status=all&pageSize=1&page=${page}`);
      expect(one.total).toBe(all.total);
      paged.push(...one.lists.map((row) => `${row.targetUri} ${row.sourceUri} ${row.line}`));
    }
    expect(paged).toEqual(all.lists.map((row) => `${row.targetUri} ${row.sourceUri} ${row.line}`));
    // Grouped by target (an anchor's row is its page's), the ignored URL is no group.
    const groups = await read<{ groups: Array<{ key: string }> }>(
      `/api/report/link/${id}?groupBy=target`,
    );
    expect(groups.groups.map((group) => group.key.replace(base, '')).sort()).toEqual([
      '/b',
      '/guide.html',
    ]);

    // The summary, the rule tab and the scan list count without the ignored ones.
    const after = await summary(id);
    expect([after.badLinks, after.uniqueBadLinks, after.brokenAnchors]).toEqual([1, 1, 1]);
    expect(after.ignored).toEqual({
      badLinks: 2,
      uniqueBadLinks: 1,
      brokenAnchors: 0,
      findings: 1,
    });
    // The broken anchor marked "will fix" still counts, under its own reason (issue 37).
    expect(after.reasons).toEqual([
      { failureReason: 'Not Found', numberOfReferences: 1 },
      { failureReason: 'Broken Anchor', numberOfReferences: 1 },
    ]);
    expect(after.ruleSamples).toEqual([]);
    expect((await ruleTab(id)).total).toBe(0);
    const ruleIgnored = await ruleTab(id, '&triage=ignored');
    expect(ruleIgnored.lists.map((row) => [row.uri.replace(base, ''), row.triage?.mark])).toEqual([
      ['/', 'ignored'],
    ]);
    expect((await read<{ findings: number }>(`/api/report/ruleCounts/${id}`)).findings).toBe(0);
    expect(await listed(id)).toMatchObject({ badLinks: 1, uniqueBadLinks: 1, ignoredBadLinks: 2 });

    // The site's marks, newest first.
    const site = await read<{ site: string; marks: Array<{ kind: string }> }>(
      `/api/report/triage/${id}`,
    );
    expect(site.site).toBe(`${base}/`);
    expect(site.marks.map((entry) => entry.kind).sort()).toEqual(['anchor', 'link', 'rule']);
    // limit=0: whether the reader owns the site's marks, without them (the report screen asks so).
    expect(await read(`/api/report/triage/${id}?limit=0`)).toEqual({ site: `${base}/`, marks: [] });
    expect((await api.get(`/api/report/triage/${id}?limit=-1`, owner.token)).status).toBe(400);

    // The PDF of the report is the report as triaged: the ignored URL is not among its links.
    const pdf = await fetch(`${server.baseUrl}/api/report/pdf/${id}?lang=en`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(pdf.status).toBe(200);
    const pdfText = await textOfPdf(Buffer.from(await pdf.arrayBuffer()));
    expect(pdfText).toContain(`${base}/b`);
    expect(pdfText).not.toContain(`${base}/a `);
    expect(pdfText).not.toMatch(new RegExp(`${base}/a$`, 'm'));

    // The CSV of the tab is what the tab shows.
    const csv = await fetch(`${server.baseUrl}/api/report/link/${id}?format=csv`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const text = await csv.text();
    expect(text).toContain(`${base}/b`);
    expect(text).not.toContain(`${base}/a,`);
  });

  it('carries the marks to the next scan of the site, after the site changed', async () => {
    links = ['/a', '/b', '/c', '/guide.html#nope'];
    const id = await scanNow();
    const open = await linkTab(id);
    expect(targets(open.lists)).toEqual(['/b', '/c', '/guide.html#nope']);
    expect(open.lists.find((row) => row.targetUri.endsWith('#nope'))?.triage?.mark).toBe('willFix');
    const after = await summary(id);
    expect([after.badLinks, after.uniqueBadLinks]).toEqual([2, 2]);
    expect(await listed(id)).toMatchObject({ badLinks: 2, uniqueBadLinks: 2, ignoredBadLinks: 1 });
    // Changes: /c is new; the ignored /a and finding leave the counts and stay behind the filter.
    const changes = await read<ScanChanges>(`/api/report/changes/${id}?pageSize=100`);
    expect(changes.counts).toEqual({ new: 1, still: 2, fixed: 0, removed: 0 });
    expect(changes.ignored).toBe(2);
    const ignored = await read<ScanChanges>(`/api/report/changes/${id}?triage=ignored`);
    expect(ignored.rows.map((row) => [row.kind, row.target.replace(base, ''), row.state])).toEqual([
      ['link', '/a', 'still'],
      ['rule', '/', 'still'],
    ]);

    // The schedule chart's "new problems" of this run: /c, until it is ignored.
    const scope = { userId: await userIdOf(server.database.db, owner.email), site: `${base}/` };
    expect(await newProblemCounts(server.database.db, scope, [...scans])).toEqual([null, 1]);
    // A second ignored URL: both leave the tab (the marks are a set, not one value).
    const second = await mark(id, { kind: 'link', target: `${base}/c`, mark: 'ignored' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(targets((await linkTab(id)).lists)).toEqual(['/b', '/guide.html#nope']);
    expect(targets((await linkTab(id, '&triage=ignored')).lists)).toEqual(['/a', '/c']);
    expect((await summary(id)).ignored).toMatchObject({ badLinks: 2, uniqueBadLinks: 2 });
    expect(await newProblemCounts(server.database.db, scope, [...scans])).toEqual([null, 0]);
  });

  it('clears a mark: the problem counts again on every scan of the site', async () => {
    const [first, second] = scans as [string, string];
    const cleared = await api.send(
      'DELETE',
      `/api/report/triage/${second}?kind=link&target=${encodeURIComponent(`${base}/a`)}`,
      undefined,
      owner.token,
    );
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(204);
    expect((await summary(first)).badLinks).toBe(3);
    expect((await listed(first))?.ignoredBadLinks).toBeUndefined();
    expect(await listed(second)).toMatchObject({ badLinks: 2, ignoredBadLinks: 1 });
    const again = await api.send(
      'DELETE',
      `/api/report/triage/${second}?kind=link&target=${encodeURIComponent(`${base}/a`)}`,
      undefined,
      owner.token,
    );
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(triageMessages.notFound);
  });

  it('refuses what is not a problem of the scan, bad marks, and anyone but the owner', async () => {
    const id = scans[0] ?? '';
    const notInScan = await mark(id, {
      kind: 'link',
      target: `${base}/guide.html`,
      mark: 'ignored',
    });
    expect(notInScan.status).toBe(400);
    expect(notInScan.body.modelState.target).toEqual([triageMessages.notInScan]);
    const noRule = await mark(id, { kind: 'rule', target: `${base}/`, mark: 'ignored' });
    expect(noRule.status).toBe(400);
    expect(Object.keys(noRule.body.modelState as object)).toEqual(['ruleId']);
    const badMark = await mark(id, { kind: 'link', target: `${base}/b`, mark: 'later' });
    expect(badMark.status).toBe(400);
    const longNote = await mark(id, {
      kind: 'link',
      target: `${base}/b`,
      mark: 'ignored',
      note: 'x'.repeat(501),
    });
    expect(longNote.status).toBe(400);
    const stranger = await signUp(api, 'stranger');
    const foreign = await mark(
      id,
      { kind: 'link', target: `${base}/b`, mark: 'ignored' },
      stranger.token,
    );
    expect(foreign.status).toBe(404);
    expect((await api.get(`/api/report/triage/${id}`, stranger.token)).status).toBe(404);
    expect((await api.get(`/api/report/triage/${id}`)).status).toBe(401);
    // Nothing of that changed the owner's figures.
    expect((await summary(id)).badLinks).toBe(3);
  });

  it('keeps a mark on a 3,900-character address (the key is its hash, within index limits)', async () => {
    const scope = { userId: await userIdOf(server.database.db, owner.email), site: `${base}/` };
    const target = { kind: 'anchor' as const, target: `${base}/guide.html#${'a'.repeat(3850)}` };
    const at = new Date();
    await setMark(server.database.db, scope, { ...target, mark: 'ignored', note: '', at });
    await setMark(server.database.db, scope, { ...target, mark: 'willFix', note: 'later', at });
    const marks = await siteMarks(server.database.db, scope);
    expect(marks.filter((entry) => entry.target === target.target)).toMatchObject([
      { mark: 'willFix', note: 'later' },
    ]);
    expect(await removeMark(server.database.db, scope, target)).toBe(true);
  });
});
