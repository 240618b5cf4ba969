import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  createLookup,
  fastEngineOptions,
  htmlPage,
  redirect,
  startTestSite,
  testCertificates,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

const run = promisify(execFile);

/**
 * Suggested fixes (issue 27) in the report PDF: a real site with a misspelt page, a page moved to
 * another folder, a misspelt #fragment, a self-signed certificate, a server too slow to answer, a
 * host that does not exist, a working redirect and a 404 nothing matches. In the PDF's text
 * (pdftotext), each broken link with a fix has it in the lines under it (up to the next link),
 * in the words of the report screen, in English and in Chinese; no other link has one; and no
 * line of text overlaps another on any page (pdftotext's word boxes).
 */
describe.each(testDialects())('suggested fixes in the report PDF (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let selfSigned: TestSite;
  let owner: { email: string; token: string };
  let scanId: string;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'linkaudit-pdf-fix-'));
    selfSigned = await startTestSite(
      { '/x.html': 'self-signed' },
      { tls: testCertificates(['localhost']).selfSigned },
    );
    site = await startTestSite({
      '/': htmlPage(
        [
          '<a href="/docs/getting-startd.html">Start</a>',
          '<a href="/old/pricing.html">Prices</a>',
          '<a href="/guide.html#instalation">Install</a>',
          '<a href="/moved">Moved</a>',
          '<a href="/nowhere-at-all">x</a>',
          '<a href="/slow">Slow</a>',
          `<a href="${selfSigned.url('/x.html')}">Secure</a>`,
          '<a href="http://gone.invalid/page.html">Gone</a>',
          '<a href="/docs/getting-started.html">Start</a>',
          '<a href="/plans/pricing.html">Prices</a>',
        ].join('\n'),
      ),
      '/moved': redirect('/guide.html', 301),
      '/docs/getting-started.html': htmlPage('start'),
      '/plans/pricing.html': htmlPage('prices'),
      '/guide.html': htmlPage('<h2 id="installation">Install</h2><h2 id="usage">Use</h2>'),
      '/slow': { body: 'too late', delayMs: 10_000 },
    });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      // No DNS here: every name but localhost fails as a real resolver's NXDOMAIN would.
      { ...fastEngineOptions, retries: 0, requestTimeoutMs: 2_500, lookup: createLookup([]) },
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'pdf-fix');
    // Anchors need a paid plan.
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/'), scanDepth: 3, checkAnchors: true } },
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
    await Promise.all([site.close(), selfSigned.close()]);
    await rm(work, { recursive: true, force: true });
  });

  /** The PDF in `lang`, written to the work folder; its file name. */
  async function pdfFile(lang: string): Promise<string> {
    const response = await fetch(`${server.baseUrl}/api/report/pdf/${scanId}?lang=${lang}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status).toBe(200);
    const file = join(work, `${lang}.pdf`);
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const keep = process.env.PDF_PNG_DIR;
    if (keep) {
      await copyFile(file, join(keep, `fixes-${lang}.pdf`));
      await run('pdftoppm', ['-png', '-r', '60', file, join(keep, `fixes-${lang}`)]);
    }
    return file;
  }

  /**
   * The text under each link of the "All broken links" section, whitespace removed (pdftotext
   * drops spaces beside Chinese): from the link's line to the next link's, page headers and
   * footers left out.
   */
  async function brokenLinkBlocks(file: string, heading: string): Promise<Map<string, string>> {
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    const lines = stdout.split('\n').map((line) => line.trim());
    const start = lines.indexOf(heading);
    expect(start).toBeGreaterThan(0);
    const blocks = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const line of lines.slice(start + 1)) {
      if (/^https?:\/\//.test(line)) blocks.set(line, (current = []));
      else if (line.startsWith('LinkAudit ·') || /^(Page \d+|第\s*\d+\s*页)$/.test(line)) continue;
      else current?.push(line);
    }
    return new Map([...blocks].map(([link, block]) => [link, block.join('').replace(/\s+/g, '')]));
  }

  const squeeze = (text: string) => text.replace(/\s+/g, '');

  /** Pairs of text lines whose boxes overlap on one page (pdftotext -bbox-layout). */
  async function overlappingLines(file: string): Promise<string[]> {
    const { stdout } = await run('pdftotext', ['-bbox-layout', file, '-']);
    const overlaps: string[] = [];
    for (const [index, page] of stdout.split('<page ').slice(1).entries()) {
      const boxes = [
        ...page.matchAll(
          /<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([\s\S]*?)<\/line>/g,
        ),
      ].map((match) => ({
        x0: Number(match[1]),
        y0: Number(match[2]),
        x1: Number(match[3]),
        y1: Number(match[4]),
        words: [...match[5]!.matchAll(/>([^<]*)<\/word>/g)].map((word) => word[1]).join(' '),
      }));
      // A point of tolerance: glyph boxes of neighbouring lines may touch.
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1))
          if (a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - 1 && b.y0 < a.y1 - 1)
            overlaps.push(`page ${index + 1}: "${a.words}" / "${b.words}"`);
    }
    return overlaps;
  }

  it('shows each broken link’s fix and its reason under it, in English', async () => {
    const file = await pdfFile('en');
    const blocks = await brokenLinkBlocks(file, 'All broken links');
    const fixOf = (path: string) => blocks.get(site.url(path));
    expect(fixOf('/docs/getting-startd.html')).toMatch(
      new RegExp(
        squeeze(
          `Suggested fix · Closest page · \\d+% sure: ${site.url('/docs/getting-started.html')}` +
            ' Page not found; the page with the most similar address is the likely new home.',
        ),
      ),
    );
    expect(fixOf('/old/pricing.html')).toContain(
      squeeze(
        `Suggested fix · Closest page · 90% sure: ${site.url('/plans/pricing.html')}` +
          ' Page not found; a page with the same file name exists elsewhere on the site.',
      ),
    );
    expect(fixOf('/guide.html#instalation')).toMatch(
      new RegExp(
        squeeze(
          `Suggested fix · Closest anchor · \\d+% sure: ${site.url('/guide.html')}#installation` +
            ' The target page has no such id; this is the closest id on it.',
        ),
      ),
    );
    expect(fixOf('/slow')).toContain(
      squeeze(
        'Suggested fix · Why The server did not answer in time. It may be overloaded or down: try again later, or ask its owner to check the server.',
      ),
    );
    expect(blocks.get(selfSigned.url('/x.html'))).toContain(
      squeeze(
        'Suggested fix · Why The site’s certificate is not valid (expired, self-signed or for another name). Its owner must renew or fix the certificate; until then remove or replace the link.',
      ),
    );
    expect(blocks.get('http://gone.invalid/page.html')).toContain(
      squeeze(
        'Suggested fix · Why The host name does not exist (DNS lookup failed). Check the address for typos; if the domain has lapsed, remove the link.',
      ),
    );
    // A 404 nothing matches has no fix; a working redirect is not a broken link.
    expect(fixOf('/nowhere-at-all')).toMatch(/^404NotFound·/);
    expect(fixOf('/nowhere-at-all')).not.toContain('Suggested');
    expect(fixOf('/moved')).toBeUndefined();
    // Seven broken links, six fixes: one under each, none elsewhere.
    expect(blocks.size).toBe(7);
    const fixes = [...blocks.values()].join('').split('Suggestedfix').length - 1;
    expect(fixes).toBe(6);
    expect(await overlappingLines(file)).toEqual([]);
  });

  it('shows them in Chinese in the Chinese PDF', async () => {
    const file = await pdfFile('zh-CN');
    const blocks = await brokenLinkBlocks(file, '全部失效链接');
    const fixOf = (path: string) => blocks.get(site.url(path));
    expect(fixOf('/docs/getting-startd.html')).toMatch(
      new RegExp(
        squeeze(
          `建议修复 · 最接近的页面 · 把握 \\d+%：${site.url('/docs/getting-started.html')}` +
            ' 页面不存在；地址最相近的页面很可能是它的新位置。',
        ),
      ),
    );
    expect(fixOf('/guide.html#instalation')).toMatch(
      new RegExp(
        squeeze(
          `建议修复 · 最接近的锚点 · 把握 \\d+%：${site.url('/guide.html')}#installation` +
            ' 目标页面没有该 id；这是页面上最接近的 id。',
        ),
      ),
    );
    expect(fixOf('/slow')).toContain(
      squeeze(
        '建议修复 · 原因 服务器未及时响应，可能过载或已停止运行：请稍后重试，或请其所有者检查服务器。',
      ),
    );
    expect(blocks.get('http://gone.invalid/page.html')).toContain(
      squeeze('建议修复 · 原因 该主机名不存在（DNS 查询失败）。'),
    );
    expect(fixOf('/nowhere-at-all')).not.toContain('建议修复');
    expect([...blocks.values()].join('').split('建议修复').length - 1).toBe(6);
    expect(await overlappingLines(file)).toEqual([]);
  });
});
