import type { Server } from 'node:http';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ensureSite, tailItems } from '../bench/generator.mjs';
import { startSiteServer } from '../bench/server.mjs';
import { antSelect, chooseOption, setPlan, signedInUser } from './helpers.js';
import { serverFinished } from './server-data.js';

// A report of more than 20,000 links works in the browser: paging reaches the last page and
// every count on screen is the server's. The timings live in bench/report-ui.mjs.

let site: { server: Server; port: number };
/** HTML pages the site has: its 650, and the tail's slow and trickling pages, which answer. */
let sitePages = 0;
test.beforeAll(async () => {
  // The bench's 650-page site (22,000 links), generated once into bench/.sites.
  const { dir, truth } = ensureSite(path.resolve('bench/.sites'), { pages: 650, seed: 1 });
  const tailPages = tailItems(truth.options).filter(
    (item) => item.element === 'a' && (item.kind === 'slow' || item.kind === 'trickle'),
  );
  sitePages = truth.options.pages + tailPages.length;
  site = await startSiteServer(dir);
});
test.afterAll(async () => {
  site.server.closeAllConnections();
  await new Promise((resolve) => site.server.close(resolve));
});

const tabPanel = (page: Page, name: string) => page.getByRole('tabpanel', { name, exact: true });
const range = (page: Page, tab: string) =>
  tabPanel(page, tab).locator('.ant-pagination-total-text');
const rows = (page: Page, tab: string) => tabPanel(page, tab).locator('tbody tr.ant-table-row');

const choose = (page: Page, select: string, option: string) =>
  chooseOption(page, antSelect(page, select), option);

async function total(request: APIRequestContext, token: string, url: string): Promise<number> {
  const answer = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { total: number }).total;
}

test('a 20,000-link report: all links paged to the last page, grouped, filtered, every tab', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const { email, token } = await signedInUser(page, request, 'report-large');
  setPlan(email, 'Enterprise');
  const created = await request.post('/api/ScanApi/', {
    data: { scanSettings: { url: `http://127.0.0.1:${site.port}/`, scanDepth: 3 } },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  const scan = await serverFinished(request, token, id, 90_000);
  expect(scan.status).toBe(1);
  expect(scan.totalLinks).toBeGreaterThan(20_000);
  const links = scan.totalLinks;
  const api = (query: string) => `/api/report/link/${id}?${query}`;

  await page.goto(`/report/${id}`);
  await expect(page.getByRole('heading', { name: 'Scan report' })).toBeVisible();
  await page.getByRole('tab', { name: 'Link' }).click();
  await expect(range(page, 'Link')).toHaveText(`1-50 of ${scan.badLinks}`);

  // Every link, 200 a page, to the last page.
  await choose(page, 'Show links', 'All links');
  await expect(range(page, 'Link')).toHaveText(`1-50 of ${links}`);
  await expect(rows(page, 'Link')).toHaveCount(50);
  await chooseOption(
    page,
    tabPanel(page, 'Link').locator('.ant-pagination-options .ant-select'),
    '200 / page',
  );
  await expect(range(page, 'Link')).toHaveText(`1-200 of ${links}`);
  await expect(rows(page, 'Link')).toHaveCount(200);
  const lastPage = Math.ceil(links / 200);
  await tabPanel(page, 'Link').locator(`.ant-pagination-item[title="${lastPage}"]`).click();
  const onLast = links - (lastPage - 1) * 200;
  await expect(range(page, 'Link')).toHaveText(`${(lastPage - 1) * 200 + 1}-${links} of ${links}`);
  await expect(rows(page, 'Link')).toHaveCount(onLast);
  const last = await request.get(api(`status=all&page=${lastPage}&pageSize=200`), {
    headers: { authorization: `Bearer ${token}` },
  });
  const lastRows = ((await last.json()) as { lists: Array<{ targetUri: string }> }).lists;
  await expect(rows(page, 'Link').last()).toContainText(lastRows.at(-1)?.targetUri ?? '-');

  // Grouped by page: one group per page with links, as the server counts them.
  await choose(page, 'Group by', 'Group by: Page');
  const groups = await total(request, token, api('status=all&groupBy=source'));
  await expect(range(page, 'Link')).toHaveText(`1-${Math.min(200, groups)} of ${groups}`);
  // Expand All reads the rows of the groups on screen, and of the others once scrolled to.
  const groupReads: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/report/link/') && sent.url().includes('source=')) {
      groupReads.push(sent.url());
    }
  });
  await page.getByRole('button', { name: 'Expand All' }).click();
  const expanded = tabPanel(page, 'Link').locator('.ant-table-expanded-row');
  await expect(expanded.first()).toContainText(`http://127.0.0.1:${site.port}/`);
  expect(groupReads.length).toBeGreaterThan(0);
  expect(groupReads.length).toBeLessThan(40);
  await expect(expanded).toHaveCount(Math.min(200, groups));
  await expanded.last().scrollIntoViewIfNeeded();
  await expect(expanded.last()).toContainText(`http://127.0.0.1:${site.port}/`);
  await page.getByRole('button', { name: 'Collapse All' }).click();
  await expect(tabPanel(page, 'Link').locator('.ant-table-expanded-row:visible')).toHaveCount(0);
  await choose(page, 'Group by', 'Group by: None');

  // Filtered by a failure reason: the option's count, the server's total and the rows agree.
  const notFound = await total(request, token, api('status=all&reason=Not%20Found'));
  await choose(page, 'Show category', `Not Found (`);
  await expect(range(page, 'Link')).toHaveText(`1-${Math.min(200, notFound)} of ${notFound}`);
  await expect(rows(page, 'Link').first()).toContainText('Not Found');

  // The other tabs of the same report.
  await page.getByRole('tab', { name: 'Page', exact: true }).click();
  await expect(range(page, 'Page')).toHaveText(`1-50 of ${sitePages}`);
  await page.getByRole('tab', { name: 'File Types' }).click();
  await expect(tabPanel(page, 'File Types')).toContainText('text/html');
  await page.getByRole('tab', { name: 'Summary' }).click();
  await expect(page.locator('.report-stats')).toContainText(links.toLocaleString('en-US'));
});
