import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { antSelect, chooseOption, finishedScan, signedInUser } from './helpers.js';
import { startTestSite, type TestSite } from './test-site.js';

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

test('the report: summary, tabs, grouping, filter, settings and CSV export', async ({
  page,
  request,
}) => {
  const { token } = await signedInUser(page, request, 'report');
  const scanId = await finishedScan(request, token, { url: site.url('/'), scanDepth: 3 });
  await page.goto(`/report/${scanId}`);
  await expect(page.getByRole('heading', { name: 'Scan report' })).toBeVisible();
  for (const section of ['Broken Links', 'UX and SEO Issues', 'Fattest Pages', 'File Types']) {
    await expect(page.locator('.report-section', { hasText: section }).first()).toBeVisible();
  }
  await expect(page.getByText('No page larger than 2MB found.')).toBeVisible();
  await expect(page.getByText('No rules been enabled for this scan.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Failure reasons' })).toBeVisible();
  await page.getByRole('button', { name: 'Expand All' }).click();
  await expect(page.locator('.report-summary')).toContainText('/missing');

  await page.getByRole('tab', { name: 'Link' }).click();
  const links = page.getByRole('tabpanel', { name: 'Link' });
  await expect(links).toContainText('/missing');
  await expect(links).toContainText('/error');

  // Filter by reason: only the 404s remain.
  await chooseOption(page, antSelect(page, 'Show category'), 'Not Found');
  await expect(links).toContainText('/missing');
  await expect(links).not.toContainText('/error');

  // CSV of the current tab, with the filter.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const csv = readFileSync((await (await downloading).path()) ?? '', 'utf8');
  expect(csv).toContain('Target,Source,Status code,Failure reason');
  expect(csv).toContain(site.url('/missing'));
  expect(csv).not.toContain(site.url('/error'));

  // Group by page, expand all groups: the rows of each group are read from the server.
  await page.getByRole('combobox', { name: 'Show category' }).press('Escape');
  await page.locator('.report-filter .ant-select-clear').click({ force: true });
  await chooseOption(page, antSelect(page, 'Group by'), 'Group by: Page');
  await expect(page.locator('.report-groups')).toContainText(site.url('/a'));
  await page.getByRole('button', { name: 'Expand All' }).click();
  await expect(page.locator('.report-groups .ant-table-expanded-row').first()).toContainText(
    '/missing',
  );
  await page.getByRole('button', { name: 'Collapse All' }).click();
  await expect(page.locator('.report-groups .ant-table-expanded-row:visible')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Page', exact: true }).click();
  await expect(page.getByRole('tabpanel', { name: 'Page', exact: true })).toContainText(
    site.url('/a'),
  );
  await page.getByRole('tab', { name: 'Rule Validation' }).click();
  await expect(
    page
      .getByRole('tabpanel', { name: 'Rule Validation' })
      .getByText('No rules been enabled for this scan.'),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'File Types' }).click();
  await expect(page.getByRole('tabpanel', { name: 'File Types' })).toContainText('text/html');

  await page.getByRole('button', { name: 'Scan settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Scan settings' })).toContainText('Site');
  await page.keyboard.press('Escape');

  // Rerun starts a new scan with the same settings.
  await page.getByRole('button', { name: 'Rerun' }).click();
  await expect(page).toHaveURL('/scan');
  await expect(page.getByText('Scan started, please check in Scan Tab')).toBeVisible();
});

test('a tab chosen before its data arrived says so', async ({ page, request }) => {
  const { token } = await signedInUser(page, request, 'report-wait');
  const scanId = await finishedScan(request, token, { url: site.url('/ok'), scanDepth: 1 });
  await page.route('**/api/report/page/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.fallback();
  });
  await page.goto(`/report/${scanId}`);
  await page.getByRole('tab', { name: 'Page', exact: true }).click();
  await expect(
    page.getByRole('dialog').filter({ hasText: 'The data has not been loaded. Please wait' }),
  ).toBeVisible();
  await expect(page.getByText('No broken link found.')).toBeVisible();
});

test('print view: print layout and the print dialog', async ({ page, request }) => {
  const { token } = await signedInUser(page, request, 'report-print');
  const scanId = await finishedScan(request, token, { url: site.url('/'), scanDepth: 3 });
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await page.goto(`/printreport/${scanId}`);
  await expect(page.getByRole('heading', { name: 'Scan report summary' })).toBeVisible();
  await expect(page.locator('.app-header')).toBeVisible();
  await page.goto(`/printreport/${scanId}?print=1`);
  await expect(page.locator('.report-summary')).toContainText('/missing');
  await expect(page.locator('.app-header')).toBeHidden();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed))
    .toBe(1);
});

test('a page over 2 MB: the report points to its Page tab, the print view does not', async ({
  page,
  request,
  context,
}) => {
  const { token } = await signedInUser(page, request, 'report-fat');
  const scanId = await finishedScan(request, token, { url: site.url('/big'), scanDepth: 1 });
  await page.goto(`/report/${scanId}`);
  await page.getByText('1 page is larger than 2 MB; see the Page tab.').click();
  await expect(page.getByRole('tab', { name: 'Page', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // Issue 37: the print view has no Page tab to send the reader to.
  await page.goto(`/printreport/${scanId}`);
  await expect(page.locator('.report-summary')).toContainText('1 page is larger than 2 MB.');
  await expect(page.locator('.report-summary')).not.toContainText('Page tab');
  await context.addCookies([
    { name: 'linkaudit_lang', value: 'zh-CN', url: new URL('/', page.url()).toString() },
  ]);
  await page.reload();
  await expect(page.locator('.report-summary')).toContainText('有 1 个页面大于 2 MB。');
  await expect(page.locator('.report-summary')).not.toContainText('选项卡');
});

test('the report in Chinese', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: baseURL ?? '' }]);
  const { token } = await signedInUser(page, request, 'report-zh');
  const scanId = await finishedScan(request, token, { url: site.url('/b'), scanDepth: 1 });
  await page.goto(`/report/${scanId}`);
  await expect(page.getByRole('tab', { name: '规则验证' })).toBeVisible();
  await expect(page.getByText('没有处理任何链接。')).toBeVisible();
  await expect(page.getByRole('button', { name: '导出为 CSV' })).toBeDisabled();
  await page.getByRole('tab', { name: '链接' }).click();
  await expect(page.getByRole('combobox', { name: '显示链接' })).toBeVisible();
  await expect(page.getByText('发现 0 个失效链接')).toBeVisible();
});
