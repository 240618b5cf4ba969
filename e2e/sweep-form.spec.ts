import { expect, test, type Page } from '@playwright/test';
import { setPlan, signedInUser } from './helpers.js';
import { scansOf } from './server-data.js';
import { startTestSite, type TestSite } from './test-site.js';

// Issue 26, the scan form: the time limit and its unit (S3.10), exclusion entries with their
// comment and read/edit mode (S3.24), the engine V2 flag (S3.11/S5.18) and the rule list's
// link to /WhyNotTranslated in Chinese (S1.18).

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

const startButton = (page: Page) => page.getByRole('button', { name: 'Start scan' });

test('free: the time limit shows in hours and only shortens; exclusions keep a comment', async ({
  page,
  request,
}) => {
  await signedInUser(page, request, 'sweep-form-free');
  await page.goto('/scan');
  await page.getByRole('tab', { name: 'Scan Options' }).click();
  const timeout = page.locator('#scan-timeout');
  await expect(timeout).toHaveValue('4');
  await expect(timeout).toHaveAttribute('aria-valuemax', '4');
  await expect(page.getByText('hours', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Free scans stop after at most 4 hours; a paid plan allows up to a week.'),
  ).toBeVisible();

  await page.locator('#scan-url').fill('www.example.com');
  await page.getByRole('tab', { name: 'Exclude Links' }).click();
  await page.getByRole('button', { name: 'Add a link to exclude' }).click();
  const first = page.getByLabel('Excluded link 1');
  await first.fill('http://www.example.com/private');
  await page.getByLabel('Comment 1').fill('staff pages');
  await page.getByRole('button', { name: 'Save entry 1' }).click();
  const entry = page.getByTestId('exclude-entry');
  await expect(entry).toContainText('http://www.example.com/private');
  await expect(entry).toContainText('staff pages');
  await expect(first).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit entry 1' }).click();
  await expect(first).toHaveValue('http://www.example.com/private');
  await expect(page.getByLabel('Comment 1')).toHaveValue('staff pages');
  // An entry with a problem cannot be closed.
  await first.fill('www.example.com/x');
  await expect(page.getByRole('button', { name: 'Save entry 1' })).toBeDisabled();
});

test('paid: a longer time limit and the V2 flag reach the scan; the viewer shows them', async ({
  page,
  request,
}) => {
  const { email, token } = await signedInUser(page, request, 'sweep-form-paid');
  setPlan(email, 'Basic');
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/ok'))}`);
  await page.getByRole('tab', { name: 'Scan Options' }).click();
  await expect(page.getByTestId('max-links-value')).toHaveText('Unlimited');
  await expect(page.locator('#scan-timeout')).toHaveAttribute('aria-valuemax', '168');
  await page.locator('#scan-timeout').fill('12');
  await page.locator('#scan-timeout').blur();
  await expect(page.getByText('this server has one engine', { exact: false })).toBeVisible();
  // Turning V2 on sets a link limit (SPEC §5).
  const v2 = page.getByRole('switch', { name: 'Scan engine V2 (beta)' });
  await expect(v2).toBeChecked();
  await v2.click();
  await expect(v2).not.toBeChecked();
  await expect(page.getByTestId('max-links-value')).toHaveText('Unlimited');
  await v2.click();
  await expect(page.getByTestId('max-links-value')).not.toHaveText('Unlimited');
  await startButton(page).click();
  await expect(page.getByText(/Scan Job is (queued|successfully)/)).toBeVisible();
  await expect.poll(async () => (await scansOf(request, token)).length).toBe(1);
  const [scan] = await scansOf(request, token);
  expect(scan?.scanSettings).toMatchObject({
    timeoutAfter: 12,
    useScanEngineV2: true,
    scanLimitOption: 1,
  });
});

test('in Chinese the rule list links to the page on why rules are in English', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { email } = await signedInUser(page, request, 'sweep-form-zh');
  setPlan(email, 'Basic');
  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: baseURL ?? '' }]);
  await page.goto('/scan');
  await page.getByRole('tab', { name: '规则' }).click();
  const link = page
    .getByRole('tabpanel', { name: '规则' })
    .getByRole('link', { name: '为何未翻译' });
  await expect(link).toHaveAttribute('href', '/WhyNotTranslated');
  await page.getByRole('tab', { name: '扫描选项' }).click();
  await expect(page.getByText('小时', { exact: true })).toBeVisible();
});
