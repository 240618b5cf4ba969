import { expect, test, type Page } from '@playwright/test';
import { setPlan, signedInUser } from './helpers.js';
import { recordUsage, scansOf, serverFinished } from './server-data.js';
import { startTestSite, type TestSite } from './test-site.js';

// SPEC §4/§8 answers 12 and 13 of a submission, as the server computes them from the account's
// plan (set with `plan set`) and the unique URLs its scans used this month (recorded as a
// finished scan, e2e/record-usage.mjs). Answer 14 needs schedules: scan.spec.ts still fakes it.

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

const startButton = (page: Page) => page.getByRole('button', { name: 'Start scan' });

test('12: a Basic account that used its 200,000 URLs this month is sent to upgrade', async ({
  page,
  request,
}) => {
  const { email, token } = await signedInUser(page, request, 'credits-limit');
  setPlan(email, 'Basic');
  recordUsage(email, 200_000);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/ok'))}`);
  await startButton(page).click();
  const limit = page.getByRole('dialog', { name: 'Subcription monthly limit reached' });
  await expect(limit).toContainText('You have used all the URLs of your plan this month.');
  // Nothing was queued: the list holds only the scan that used the month's URLs.
  expect((await scansOf(request, token)).map((scan) => scan.url)).toEqual([
    'http://usage-record.example.com/',
  ]);
  await limit.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL('/pricing');
});

test('the limit follows the plan: the same usage leaves a Basic account room', async ({
  page,
  request,
}) => {
  const { email } = await signedInUser(page, request, 'credits-plan');
  recordUsage(email, 25_000);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/ok'))}`);
  await startButton(page).click();
  await expect(
    page.getByRole('dialog', { name: 'Subcription monthly limit reached' }),
  ).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // Free allows 25,000 URLs a month, Basic 200,000: the same account may scan once upgraded.
  setPlan(email, 'Basic');
  await page.reload();
  await startButton(page).click();
  await expect(page.getByText(/Scan Job is queued/)).toBeVisible();
});

test('13: a Free account with 3,000 URLs left lowers the scan limit and its scan is queued', async ({
  page,
  request,
}) => {
  const { email, token } = await signedInUser(page, request, 'credits-low');
  recordUsage(email, 22_000);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/'))}`);
  await startButton(page).click();
  const low = page.getByRole('dialog', { name: 'Low Credit Warning' });
  await expect(low).toContainText('Only 3000 URLs are left this month.');
  await low.getByRole('button', { name: 'Change the scan limit' }).click();
  await expect(page.getByRole('tab', { name: 'Scan Options', selected: true })).toBeVisible();
  await expect(page.getByTestId('max-links-value')).toHaveText('3,000');

  await startButton(page).click();
  await expect(page.getByText(/Scan Job is queued/)).toBeVisible();
  const queued = (await scansOf(request, token)).find((scan) => scan.url === site.url('/'));
  expect(queued?.scanSettings).toMatchObject({ scanLimitOption: 1, maxLinkAmount: 3000 });
  const finished = await serverFinished(request, token, queued?.id ?? '');
  expect(finished.status).toBe(1);
  await expect(page.locator(`tr[data-scan-id="${finished.id}"]`)).toContainText('Complete', {
    timeout: 15_000,
  });
});

test('12 and 13 in Chinese: the low-credit and monthly-limit dialogs', async ({
  page,
  request,
  context,
}) => {
  const { email } = await signedInUser(page, request, 'credits-zh');
  await context.addCookies([
    { name: 'linkaudit_lang', value: 'zh-CN', url: test.info().project.use.baseURL ?? '' },
  ]);
  recordUsage(email, 22_000);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/'))}`);
  const start = page.getByRole('button', { name: '开始扫描' });
  await start.click();
  const low = page.getByRole('dialog', { name: '额度不足警告' });
  await expect(low).toContainText('本月仅剩 3000 个 URL。请升级套餐或降低扫描限制。');
  await expect(low.getByRole('button', { name: '更改扫描限制' })).toBeVisible();

  // The month's last 3,000 URLs used elsewhere: the same scan now meets the monthly limit.
  recordUsage(email, 3_000);
  await page.reload();
  await start.click();
  const limit = page.getByRole('dialog', { name: '已达到订阅的每月限额' });
  await expect(limit).toContainText('您本月已用完套餐中的所有 URL。升级套餐即可扫描更多。');
  await limit.getByRole('button', { name: /升\s*级/ }).click();
  await expect(page).toHaveURL('/pricing');
});
