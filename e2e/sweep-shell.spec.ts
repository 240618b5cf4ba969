import { expect, test } from '@playwright/test';
import { finishedScan, registerAccount, signedInUser, signInHere, uniqueEmail } from './helpers.js';
import { startTestSite, type TestSite } from './test-site.js';

// Issue 26: the frame around every screen. Toasts run across the top at full width and go by
// themselves (SPEC §8); alerts are dialogs that may close themselves (SPEC §2 Dialogs); every
// route names the browser tab in the interface language.

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

test('a toast spans the top of the window and leaves by itself', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const email = uniqueEmail('sweep-toast');
  await registerAccount(request, email);
  await page.goto('/signin');
  await signInHere(page, email, 'first-secret');
  const toast = page.locator('.ant-message-notice-wrapper', { hasText: 'Successfully signed in' });
  await expect(toast).toBeVisible({ timeout: 15_000 });
  const box = await toast.boundingBox();
  expect(box?.y).toBe(0);
  expect(box?.x).toBe(0);
  expect(box?.width).toBe(1366);
  await expect(toast).toBeHidden({ timeout: 15_000 });
});

test('choosing a tab too early shows an alert dialog that closes by itself', async ({
  page,
  request,
}) => {
  const { token } = await signedInUser(page, request, 'sweep-alert');
  const scanId = await finishedScan(request, token, { url: site.url('/ok'), scanDepth: 1 });
  await page.route('**/api/report/page/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 8000));
    await route.fallback();
  });
  await page.goto(`/report/${scanId}`);
  await expect(page.getByText('No broken link found.')).toBeVisible();
  await page.getByRole('tab', { name: 'Page', exact: true }).click();
  const alert = page.getByRole('dialog').filter({ hasText: 'The data has not been loaded' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'OK' })).toBeVisible();
  await expect(alert).toBeHidden({ timeout: 10_000 });
});

test('every route names the browser tab, in both languages', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await signedInUser(page, request, 'sweep-title');
  const expected: Array<[string, string, string]> = [
    ['/', 'LinkAudit: website link checker', 'LinkAudit：网站链接检查'],
    ['/scan', 'Scan · LinkAudit', '扫描 · LinkAudit'],
    ['/schedule', 'Schedule · LinkAudit', '定时扫描 · LinkAudit'],
    ['/pricing', 'Pricing · LinkAudit', '价格 · LinkAudit'],
    ['/faq', 'FAQ · LinkAudit', '常见问题 · LinkAudit'],
    ['/WhyNotTranslated', 'Why not translated · LinkAudit', '为何未翻译 · LinkAudit'],
    ['/manage', 'Account · LinkAudit', '账户 · LinkAudit'],
  ];
  for (const [route, en] of expected) {
    await page.goto(route);
    await expect(page).toHaveTitle(en);
  }
  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: baseURL ?? '' }]);
  for (const [route, , zh] of expected) {
    await page.goto(route);
    await expect(page).toHaveTitle(zh);
  }
});
