import { expect, test } from '@playwright/test';
import { setPlan, signedInUser } from './helpers.js';
import { recordUsage, scansOf } from './server-data.js';
import { startTestSite, type TestSite } from './test-site.js';

// DESIGN §4's websites and HTML check, as the scan form shows them. The account's three kept
// websites are recorded as finished scans (e2e/record-usage.mjs), so nothing is crawled first.

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

test('a Free account with three websites is refused a fourth, with the way to upgrade', async ({
  page,
  request,
}) => {
  const { email, token } = await signedInUser(page, request, 'websites-limit');
  for (const name of ['one', 'two', 'three']) recordUsage(email, 1, `http://${name}.example.com/`);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/ok'))}`);
  await page.getByRole('button', { name: 'Start scan' }).click();
  const refusal = page.locator('.scan-submit-error');
  await expect(refusal).toContainText(
    'Your plan allows 3 websites. Delete the scans and schedules of a website or upgrade your plan to scan another.',
  );
  await expect(page.getByRole('button', { name: 'Start scan' })).toHaveClass(/ant-btn-dangerous/);
  expect(await scansOf(request, token)).toHaveLength(3);
  await page.screenshot({ path: test.info().outputPath('website-limit.png'), fullPage: true });
  await refusal.getByRole('link', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL('/pricing');
});

test('the refusal in Simplified Chinese', async ({ page, request, context }) => {
  const { email } = await signedInUser(page, request, 'websites-limit-zh');
  for (const name of ['one', 'two', 'three']) recordUsage(email, 1, `http://${name}.example.com/`);
  await context.addCookies([
    { name: 'linkaudit_lang', value: 'zh-CN', url: test.info().project.use.baseURL ?? '' },
  ]);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/ok'))}`);
  await page.locator('.scan-form button[type="submit"]').click();
  const refusal = page.locator('.scan-submit-error');
  await expect(refusal).toContainText(
    '您的套餐最多可用于 3 个网站。请删除某个网站的扫描和定时扫描，或升级套餐以扫描其他网站。',
  );
  await expect(refusal.getByRole('link', { name: '升级' })).toBeVisible();
});

test('Basic shows Valid HTML rules disabled with the upgrade note; Premium may pick them', async ({
  page,
  request,
}) => {
  // Two operator commands and two loads of the scan screen.
  test.setTimeout(90_000);
  const { email } = await signedInUser(page, request, 'html-check');
  setPlan(email, 'Basic');
  await page.goto('/scan');
  await page.getByRole('tab', { name: 'Rules' }).click();
  await page.getByRole('button', { name: /^Valid HTML/ }).click();
  const note = page.getByText(
    'Valid HTML rules need a plan with HTML validation (Premium or Enterprise).',
  );
  await expect(note).toBeVisible();
  const htmlRules = page.locator('.rules-groups .ant-collapse-item-active .ant-checkbox-input');
  expect(await htmlRules.count()).toBeGreaterThan(0);
  for (const box of await htmlRules.all()) await expect(box).toBeDisabled();
  // Select all takes every rule the plan runs, none of the Valid HTML ones.
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(page.getByRole('checkbox', { name: 'Select all' })).toBeChecked();
  for (const box of await htmlRules.all()) await expect(box).not.toBeChecked();
  await page.screenshot({ path: test.info().outputPath('html-check-locked.png'), fullPage: true });

  setPlan(email, 'Premium');
  await page.reload();
  await page.getByRole('tab', { name: 'Rules' }).click();
  await page.getByRole('button', { name: /^Valid HTML/ }).click();
  await expect(note).toHaveCount(0);
  for (const box of await htmlRules.all()) await expect(box).toBeEnabled();
});
