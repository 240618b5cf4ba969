import { expect, test } from '@playwright/test';
import { antSelect, chooseOption, finishedScan, setPlan, signedInUser } from './helpers.js';
import { startTestSite, type TestSite } from './test-site.js';

// Issue 26, the report and the scan list as a user meets them: named rule-category doughnuts,
// category filters with choices on every tab that has them, a File Types filter that filters,
// sizes and counts people read, and the scan list's actions in view on a 1366×900 screen.

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

test('doughnuts carry their category, filters offer and apply their choices', async ({
  page,
  request,
}) => {
  const { email, token } = await signedInUser(page, request, 'sweep-report');
  setPlan(email, 'Enterprise');
  const rules = (await (
    await request.get('/api/ScanRuleApi/', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as Array<{ linkAuditorRuleID: number; isEnabled: boolean }>;
  const selectedRules = rules
    .filter((rule) => rule.isEnabled)
    .map((rule) => rule.linkAuditorRuleID);
  const scanId = await finishedScan(request, token, {
    url: site.url('/'),
    scanDepth: 3,
    selectedRules,
  });
  await page.goto(`/report/${scanId}`);
  await expect(page.getByRole('heading', { name: 'Scan report' })).toBeVisible();
  // Each doughnut is captioned with its category.
  const captions = page.locator('.rule-category-name');
  await expect(captions.first()).toBeVisible();
  await expect(captions.filter({ hasText: 'SEO' })).toHaveCount(1);
  // Small pages read in B/kB, never "0.00 MB".
  await expect(page.locator('body')).not.toContainText('0.00 MB');

  // Page tab: the filter offers the pages' content types.
  await page.getByRole('tab', { name: 'Page', exact: true }).click();
  const pages = page.getByRole('tabpanel', { name: 'Page', exact: true });
  await expect(pages).toContainText(site.url('/a'));
  await expect(pages).toContainText(/\d+ B/);
  await antSelect(page, 'Show category').click();
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toContainText([
    'text/html',
  ]);
  await page.keyboard.press('Escape');

  // Rule Validation: the categories of the findings.
  await page.getByRole('tab', { name: 'Rule Validation' }).click();
  await expect(
    page.getByRole('tabpanel', { name: 'Rule Validation' }).locator('tr.ant-table-row').first(),
  ).toBeVisible();
  await antSelect(page, 'Show category').click();
  await expect(
    page.locator('.ant-select-dropdown:visible .ant-select-item-option').first(),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // File Types: choosing image/png leaves image/png only.
  await page.getByRole('tab', { name: 'File Types' }).click();
  const types = page.getByRole('tabpanel', { name: 'File Types' });
  await expect(types).toContainText('text/html');
  await chooseOption(page, antSelect(page, 'Show category'), 'image/png');
  await expect(types).toContainText('image/png');
  await expect(types.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(types).not.toContainText('text/html');
});

test('the scan list keeps cancel and delete in view at 1366×900', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const { token } = await signedInUser(page, request, 'sweep-actions');
  await request.post('/api/ScanApi/', {
    data: { scanSettings: { url: site.url('/slow/1'), scanDepth: 3 } },
    headers: { authorization: `Bearer ${token}` },
  });
  await page.goto('/scan');
  const row = page.locator('tr[data-scan-id]', { hasText: site.url('/slow/1') });
  await expect(row.getByRole('button', { name: 'Cancel scan' })).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole('button', { name: 'Delete' })).toBeInViewport({ ratio: 1 });
});
