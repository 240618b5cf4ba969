import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

const run = promisify(execFile);

/**
 * The report as PDF (GET /api/report/pdf/{id}) of a scan of the findings site (broken link,
 * broken anchors, duplicate ids, rule findings), in English and Chinese: poppler's pdftotext must
 * read the findings and the headings, pdftoppm must render every page with something drawn on
 * it (set PDF_PNG_DIR to keep the pictures).
 */
describe.each(testDialects())('report PDF (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let owner: { email: string; token: string };
  let stranger: { email: string; token: string };
  let scanId: string;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'linkaudit-pdf-'));
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
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ADMIN_EMAILS: `pdf-admin-${dialect}@example.com` },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'pdf');
    stranger = await signUp(api, 'pdf-stranger');
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
    await rm(work, { recursive: true, force: true });
  });

  async function pdf(query: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.baseUrl}/api/report/pdf/${scanId}${query}`, {
      headers: { authorization: `Bearer ${owner.token}`, ...headers },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(
      /^inline; filename="linkaudit-127\.0\.0\.1-.{8}\.pdf"$/,
    );
    return Buffer.from(await response.arrayBuffer());
  }

  /** The PDF's text (pdftotext, layout kept) and its page count. */
  async function textOf(name: string, bytes: Buffer): Promise<{ text: string; pages: number }> {
    const file = join(work, `${name}.pdf`);
    await writeFile(file, bytes);
    const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
    const { stdout: info } = await run('pdfinfo', [file]);
    return { text, pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]) };
  }

  /** Renders every page (grey, 50 dpi) and answers each page's share of dark pixels. */
  async function renderedInk(name: string): Promise<number[]> {
    const file = join(work, `${name}.pdf`);
    await run('pdftoppm', ['-gray', '-r', '50', file, join(work, name)]);
    const pictures = (await readdir(work)).filter((f) => f.startsWith(`${name}-`)).sort();
    const keep = process.env.PDF_PNG_DIR;
    if (keep) await run('pdftoppm', ['-png', '-r', '70', file, join(keep, name)]);
    return Promise.all(
      pictures.map(async (picture) => {
        // PGM (P5): "P5\n<width> <height>\n255\n" then one byte a pixel.
        const data = await readFile(join(work, picture));
        const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 40).toString('latin1'));
        expect(header).not.toBeNull();
        const pixels = data.subarray(header![0].length);
        let dark = 0;
        for (const pixel of pixels) if (pixel < 128) dark += 1;
        return dark / pixels.length;
      }),
    );
  }

  it('writes the English report with the findings, charts and paged header and footer', async () => {
    const bytes = await pdf('?lang=en');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, pages } = await textOf('en', bytes);
    expect(pages).toBeGreaterThanOrEqual(2);
    for (const heading of [
      'LinkAudit Link report',
      'Summary',
      'Failure reasons',
      'Page size distribution',
      'Rule categories',
      'Top broken links per failure type',
      'Fattest pages',
      'No page larger than 2MB found.',
      'Duplicate anchors',
      'Rule summary',
      'All broken links',
    ]) {
      expect(text).toContain(heading);
    }
    // The broken link, each broken anchor, each duplicate id and each rule finding.
    expect(text).toContain('Not Found');
    expect(text).toContain('Broken Anchor');
    expect(text).toContain(site.url('/missing.html'));
    for (const [, target] of truth.brokenAnchors) expect(text).toContain(site.url(target));
    for (const duplicate of truth.duplicateAnchors) {
      expect(text).toContain(`#${duplicate.anchor} · ${site.url(duplicate.page)}`);
    }
    for (const rule of truth.rules) expect(text).toContain(`${rule.ruleId} ${rule.ruleName}`);
    // Header (product, site, date) and footer on every page.
    const host = new URL(site.url('/')).host;
    expect(text.split(`LinkAudit · ${host} ·`).length - 1).toBe(pages);
    for (let page = 1; page <= pages; page += 1) expect(text).toContain(`Page ${page}`);
    // Fonts embedded as subsets (a few hundred kB at most, not the 8 MB font).
    const { stdout: fonts } = await run('pdffonts', [join(work, 'en.pdf')]);
    expect(fonts).toMatch(/\+NotoSansHans-Regular\s+CID Type 0C\s+Identity-H\s+yes\s+yes/);
    expect(bytes.length).toBeLessThan(400_000);
    const ink = await renderedInk('en');
    expect(ink).toHaveLength(pages);
    for (const share of ink) expect(share).toBeGreaterThan(0.001);
  });

  it('writes the Chinese report, chosen by lang or by the language cookie', async () => {
    const { text, pages } = await textOf('zh', await pdf('?lang=zh-CN'));
    for (const heading of [
      'LinkAudit 链接报告',
      '摘要',
      '失效原因',
      '页面大小分布',
      '各失效原因的主要失效链接',
      '未发现大于 2MB 的页面。',
      '重复的锚点',
      '规则摘要',
      '全部失效链接',
      // Failure labels as the web app shows them in Chinese.
      '未找到',
      '失效锚点',
    ]) {
      expect(text).toContain(heading);
    }
    // pdftotext drops the spaces between Chinese and digits: "第 1 页" reads "第1页".
    for (let page = 1; page <= pages; page += 1)
      expect(text).toMatch(new RegExp(`第\\s*${page}\\s*页`));
    expect(text).toContain(site.url('/missing.html'));
    for (const rule of truth.rules) expect(text).toContain(`${rule.ruleId} ${rule.ruleName}`);
    const ink = await renderedInk('zh');
    expect(ink).toHaveLength(pages);
    for (const share of ink) expect(share).toBeGreaterThan(0.001);

    const byCookie = await textOf('cookie', await pdf('', { cookie: 'linkaudit_lang=zh-CN' }));
    expect(byCookie.text).toContain('LinkAudit 链接报告');
    const byDefault = await textOf('default', await pdf(''));
    expect(byDefault.text).toContain('LinkAudit Link report');
  });

  it('is the owner’s and an admin’s: others get 404, a bad language 400', async () => {
    const path = `/api/report/pdf/${scanId}`;
    const admin = await signUp(api, 'pdf-admin', `pdf-admin-${dialect}@example.com`);
    const asAdmin = await fetch(`${server.baseUrl}${path}?lang=en`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(asAdmin.status).toBe(200);
    const { text } = await textOf('admin', Buffer.from(await asAdmin.arrayBuffer()));
    expect(text).toContain(site.url('/missing.html'));
    expect((await api.get(path, stranger.token)).status).toBe(404);
    expect((await api.get(path)).status).toBe(404);
    expect((await api.get(`${path}?lang=fr`, owner.token)).status).toBe(400);
    expect((await api.get('/api/report/pdf/no-such-scan', owner.token)).status).toBe(404);
  });
});
