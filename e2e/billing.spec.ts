import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signedInUser, uniqueEmail } from './helpers.js';

/**
 * Issue 22, the paying path, against the real server and its sandbox gateway: the card numbers
 * are the providers' published test cards, the renewal is driven by the sandbox's billing clock.
 */

/** Runs an operator command of the built server on the test server's data directory. */
function serverCommand(...args: string[]): string {
  return execFileSync(process.execPath, ['packages/server/dist/main.js', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
    encoding: 'utf8',
  });
}

let voucherCounter = 0;
/** A voucher of its own per test (codes are unique); `type` as the operator command takes it. */
function createVoucher(type: 'trial' | 'fixed' | 'percent', value: number): string {
  voucherCounter += 1;
  const code = `E2E${type.toUpperCase()}${Date.now()}${voucherCounter}`;
  serverCommand('voucher', 'create', code, type, String(value));
  return code;
}

// Each test runs operator commands (a few seconds each on a loaded machine) and several calls.
test.describe.configure({ timeout: 90_000 });

const planCard = (page: Page, plan: string): Locator => page.locator(`[data-plan="${plan}"]`);

/** The confirmation dialog antd opens for a plan change or a cancellation: confirm it. */
async function confirm(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

async function fillCard(dialog: Locator, number: string): Promise<void> {
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry date').fill('12/34');
  await dialog.getByLabel('Security code (CVC)').fill('123');
}

/** The session token the web app keeps (a session cookie without "remember me"). */
async function sessionToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  const cookie = cookies.find((entry) => entry.name === 'linkaudit_session');
  const stored = await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'));
  const token = cookie ? decodeURIComponent(cookie.value) : stored;
  expect(token).toBeTruthy();
  return token ?? '';
}

test('a visitor joins with a voucher, changes, cancels and reactivates, then fixes a failed renewal', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const code = createVoucher('trial', 14);
  const email = uniqueEmail('billing-journey');

  // A visitor picks Premium: join-and-pay makes the account and starts the trial in one dialog,
  // with the card that attaches but fails at renewal.
  await page.goto('/pricing');
  await expect(planCard(page, 'Premium')).toContainText('Popular');
  await planCard(page, 'Premium').getByRole('button', { name: 'Start 7-day free trial' }).click();
  const join = page.getByRole('dialog', { name: 'Join LinkAudit with Premium' });
  await expect(join).toBeVisible();
  await join.getByLabel('First name').fill('Grace');
  await join.getByLabel('Last name').fill('Hopper');
  await join.getByLabel('E-mail address').fill(email);
  await join.getByLabel('Password', { exact: true }).fill('first-secret');
  await join.getByLabel('Confirm password').fill('first-secret');
  await join.getByLabel('Voucher (optional)').fill(code);
  await fillCard(join, '4000000000000341');
  await join.getByRole('button', { name: 'Join and start trial' }).click();
  await expect(join).toBeHidden({ timeout: 15_000 });
  await expect(
    page.getByText('You have successfully joined. Your Premium plan has started.'),
  ).toBeVisible();

  // An active Premium trial, 14 days long thanks to the voucher (not the default 7).
  const premium = planCard(page, 'Premium');
  await expect(premium).toContainText('Current plan');
  await expect(premium).toContainText(/Trial: 1[34] days left/);

  // Plan change, with confirmation.
  await planCard(page, 'Enterprise').getByRole('button', { name: 'Upgrade' }).click();
  await confirm(page);
  await expect(page.getByText('Your plan is now Enterprise.')).toBeVisible();
  await expect(planCard(page, 'Enterprise')).toContainText('Current plan');
  await expect(premium.getByRole('button', { name: 'Downgrade' })).toBeVisible();

  // Cancel (to Free) with confirmation: the plan stays until the period ends and can come back.
  await planCard(page, 'Free').getByRole('button', { name: 'Downgrade' }).click();
  await confirm(page);
  await expect(
    page.getByText(/^Your subscription is cancelled\. Your plan stays active until/),
  ).toBeVisible();
  const enterprise = planCard(page, 'Enterprise');
  await expect(enterprise).toContainText('Cancelled');
  await expect(enterprise).toContainText(/Cancelled on /);

  // Choosing Free again says it is already cancelled.
  await planCard(page, 'Free').getByRole('button', { name: 'Downgrade' }).click();
  const already = page.locator('.ant-modal-confirm');
  await expect(already).toContainText('Already Cancelled');
  await already.getByRole('button', { name: 'OK' }).click();
  await expect(already).toBeHidden();

  await enterprise.getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByText('Your Enterprise subscription continues.')).toBeVisible();
  await expect(enterprise).toContainText('Current plan');
  await expect(enterprise).not.toContainText('Cancelled');

  // The trial ends by the billing clock; the renewal charges the failing card.
  serverCommand('billing', 'advance-clock', '15');
  const token = await sessionToken(page);
  await expect
    .poll(
      async () => {
        const answer = await request.get('/api/account/userInfo', {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await answer.json()) as { paymentFailed: boolean }).paymentFailed;
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);

  // Whatever screen they open, they land on /pricing with the update dialog, which cannot be
  // dismissed: no close button, Escape and the backdrop do nothing.
  await page.goto('/scan');
  await expect(page).toHaveURL(/\/pricing$/);
  const update = page.getByRole('dialog', { name: 'Update payment details' });
  await expect(update).toBeVisible();
  await expect(update).toContainText('Your last payment failed.');
  // It says why it cannot be closed (issue 37).
  await expect(update).toContainText('This window cannot be closed while a payment is due');
  await expect(update.getByRole('button', { name: /close/i })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.mouse.click(10, 10);
  await expect(update).toBeVisible();
  await expect(update.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // A new card that pays: the failed invoice is retried and the user continues.
  await fillCard(update, '4242424242424242');
  await update.getByRole('button', { name: 'Update card' }).click();
  await expect(update).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText('Your payment details are updated.')).toBeVisible();
  await expect(enterprise).toContainText('Current plan');
  await expect(enterprise).not.toContainText('Trial:');
  await page.goto('/scan');
  await expect(page).toHaveURL(/\/scan$/);
});

test('the checkout refuses an unknown or wrongly cased voucher and a declined card', async ({
  page,
  request,
}) => {
  const code = createVoucher('percent', 50);
  await signedInUser(page, request, 'billing-refusals');
  await page.goto('/pricing');
  await planCard(page, 'Basic').getByRole('button', { name: 'Start 7-day free trial' }).click();
  const checkout = page.getByRole('dialog', { name: 'Subscribe to Basic' });
  await expect(checkout).toBeVisible();

  // Vouchers are case sensitive (SPEC §5).
  const voucher = checkout.getByLabel('Voucher (optional)');
  await voucher.fill(code.toLowerCase());
  await checkout.getByRole('button', { name: 'Apply' }).click();
  await expect(checkout.getByText('Invalid Voucher. This value is case sensitive')).toBeVisible();
  await voucher.fill(code);
  await checkout.getByRole('button', { name: 'Apply' }).click();
  await expect(checkout.getByText('Voucher applied.')).toBeVisible();
  await expect(checkout.getByTestId('checkout-summary')).toContainText('$5.00 per month');

  await fillCard(checkout, '4000000000000002');
  await checkout.getByRole('button', { name: 'Start trial' }).click();
  await expect(checkout.getByRole('alert')).toContainText('Your card was declined.');
  await expect(checkout).toBeVisible();

  // A number that cannot be a card is refused before anything is sent.
  await checkout.getByLabel('Card number').fill('4242');
  await checkout.getByRole('button', { name: 'Start trial' }).click();
  await expect(checkout.getByRole('alert')).toContainText(
    'Card validation failed! Please check your card number again',
  );

  await checkout.getByRole('button', { name: 'Cancel' }).click();
  await expect(checkout).toBeHidden();
  await expect(planCard(page, 'Free')).toContainText('Current plan');
});

test('a 100 % voucher starts a paid plan without asking for a card', async ({ page, request }) => {
  const code = createVoucher('percent', 100);
  await signedInUser(page, request, 'billing-free-voucher');
  await page.goto('/pricing');
  await planCard(page, 'Basic').getByRole('button', { name: 'Start 7-day free trial' }).click();
  const checkout = page.getByRole('dialog', { name: 'Subscribe to Basic' });
  await checkout.getByLabel('Voucher (optional)').fill(code);
  await checkout.getByRole('button', { name: 'Apply' }).click();
  await expect(checkout.getByText('No card is needed.')).toBeVisible();
  await expect(checkout.getByLabel('Card number')).toHaveCount(0);
  await checkout.getByRole('button', { name: 'Start trial' }).click();
  await expect(checkout).toBeHidden({ timeout: 15_000 });
  await expect(planCard(page, 'Basic')).toContainText('Current plan');
});

test('the pricing page in Simplified Chinese', async ({ page, context }) => {
  await context.addCookies([
    { name: 'linkaudit_lang', value: 'zh-CN', url: test.info().project.use.baseURL ?? '' },
  ]);
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: '适合每个网站的简单定价' })).toBeVisible();
  for (const name of ['免费版', '基础版', '高级版', '企业版']) {
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  }
  await expect(planCard(page, 'Premium')).toContainText('热门');
  // Full-width colons in Chinese (issue 37), not "网站数: 3".
  await expect(planCard(page, 'Free')).toContainText('网站数：3');
  await expect(planCard(page, 'Free').getByRole('button', { name: '免费注册' })).toBeVisible();
  await planCard(page, 'Premium').getByRole('button', { name: '开始 7 天免费试用' }).click();
  const join = page.getByRole('dialog', { name: '注册 LinkAudit 并选择高级版' });
  await expect(join).toBeVisible();
  await expect(join.getByLabel('卡号')).toBeVisible();
  await expect(join.getByLabel('优惠券（可选）')).toBeVisible();
});
