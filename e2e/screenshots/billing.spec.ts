import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerAccount, uniqueEmail } from '../helpers.js';

// The billing screens of the README (issue 22): pricing in both languages with a user on a Premium
// trial, the checkout dialog, and the forced update-card dialog after a failed renewal.
//   npx playwright test --config e2e/screenshots/screenshots.config.ts billing
// Output: SCREENSHOT_DIR (default /tmp/linkaudit-screens/billing); Chinese needs a CJK font.
const outDir = path.join(
  process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'linkaudit-screens'),
  'billing',
);

function serverCommand(...args: string[]): void {
  execFileSync(process.execPath, ['packages/server/dist/main.js', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('linkaudit.accessToken', value), token);
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Let antd's dialog and toast animations settle.
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage });
}

test('billing screens', async ({ browser, baseURL, request }) => {
  mkdirSync(outDir, { recursive: true });
  const email = uniqueEmail('billing-screens');
  await registerAccount(request, email);
  const answer = await request.post('/token', {
    form: { grant_type: 'password', username: email, password: 'first-secret' },
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}` };
  const card = await request.post('/api/billing/sandbox/tokens', {
    data: { number: '4000000000000341', expMonth: 12, expYear: 2034, cvc: '123' },
  });
  const { id: cardToken } = (await card.json()) as { id: string };
  const paid = await request.post('/api/Account/ProcessPayment', {
    headers,
    data: { cardToken, plan: 'Premium', billingUser: { name: 'Ada Lovelace', email } },
  });
  expect(paid.ok()).toBe(true);

  for (const language of ['en', 'zh-CN']) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL,
      locale: language,
    });
    const page = await context.newPage();
    await signIn(page, token);
    await page.goto('/pricing');
    await expect(page.locator('[data-plan="Premium"] .plan-state')).toBeVisible();
    await shoot(page, `pricing-${language}`);
    if (language === 'en') {
      // A visitor's join-and-pay shows the card form with every part.
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL });
      const visitorPage = await visitor.newPage();
      await visitorPage.goto('/pricing');
      await visitorPage
        .locator('[data-plan="Premium"]')
        .getByRole('button', { name: 'Start 7-day free trial' })
        .click();
      const dialog = visitorPage.getByRole('dialog');
      await dialog.getByLabel('First name').fill('Grace');
      await dialog.getByLabel('Last name').fill('Hopper');
      await dialog.getByLabel('E-mail address').fill('grace@example.com');
      await dialog.getByLabel('Voucher (optional)').fill('SPRING');
      await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
      await dialog.getByLabel('Expiry date').fill('12/34');
      await dialog.getByLabel('Security code (CVC)').fill('123');
      await shoot(visitorPage, 'join-and-pay');
      await visitor.close();
    }
    await context.close();
  }

  // The renewal fails on the test card; the user is held on /pricing until the card is fixed.
  serverCommand('billing', 'advance-clock', '8');
  await expect
    .poll(
      async () =>
        (
          (await (await request.get('/api/account/userInfo', { headers })).json()) as {
            paymentFailed: boolean;
          }
        ).paymentFailed,
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
  const page = await context.newPage();
  await signIn(page, token);
  await page.goto('/scan');
  await expect(page.getByRole('dialog', { name: 'Update payment details' })).toBeVisible();
  // The pricing page behind the dialog loads lazily; wait for it and for the dialog's zoom.
  await expect(page.locator('[data-plan="Premium"]')).toBeVisible();
  await page.waitForTimeout(1000);
  await shoot(page, 'update-card-forced');
  await context.close();
});
