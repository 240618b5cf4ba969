import { expect, test, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { signedInUser } from './helpers.js';

/**
 * SPEC §8's billing messages as a user sees them, in English and in Simplified Chinese, from the
 * real server and its sandbox gateway: the providers' test cards give the card refusals
 * (4000…0002 declined, 4000…0127 wrong security code); a card whose form fields do not hold a
 * card gives 'Card validation failed!' (with 'Please check your card number again' when the number
 * cannot be one); a card call that gets no answer (the connection drops)
 * gives the generic 'An error occurred while processing your card…' on update payment.
 */

function createVoucher(): string {
  const code = `E2EMSG${Date.now()}${Math.floor(Math.random() * 1000)}`;
  execFileSync(
    process.execPath,
    ['packages/server/dist/main.js', 'voucher', 'create', code, 'percent', '10'],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', LOG_LEVEL: 'warn' },
      stdio: 'pipe',
    },
  );
  return code;
}

test.describe.configure({ timeout: 90_000 });

interface Texts {
  startTrial: string;
  checkoutTitle: string;
  card: { number: string; expiry: string; cvc: string };
  voucher: string;
  apply: string;
  submit: string;
  updateCard: string;
  updateTitle: string;
  updateSubmit: string;
  invalidVoucher: string;
  declined: string;
  incorrectCvc: string;
  cardValidationFailed: string;
  checkCardNumber: string;
  fallback: string;
  current: string;
  /** The toast of a started plan: no spaces around the plan's name in Chinese (issue 37). */
  started: string;
}

const english: Texts = {
  startTrial: 'Start 7-day free trial',
  checkoutTitle: 'Subscribe to Basic',
  card: { number: 'Card number', expiry: 'Expiry date', cvc: 'Security code (CVC)' },
  voucher: 'Voucher (optional)',
  apply: 'Apply',
  submit: 'Start trial',
  updateCard: 'Update payment details',
  updateTitle: 'Update payment details',
  updateSubmit: 'Update card',
  invalidVoucher: 'Invalid Voucher. This value is case sensitive',
  declined: 'Your card was declined.',
  incorrectCvc: "Your card's security code is incorrect.",
  cardValidationFailed: 'Card validation failed!',
  checkCardNumber: 'Card validation failed! Please check your card number again',
  fallback: 'An error occurred while processing your card. Try again in a little bit.',
  current: 'Current plan',
  started: 'Your Basic plan has started.',
};

const chinese: Texts = {
  startTrial: '开始 7 天免费试用',
  checkoutTitle: '订阅基础版',
  card: { number: '卡号', expiry: '有效期', cvc: '安全码（CVC）' },
  voucher: '优惠券（可选）',
  apply: '使用',
  submit: '开始试用',
  updateCard: '更新付款信息',
  updateTitle: '更新付款信息',
  updateSubmit: '更新银行卡',
  invalidVoucher: '优惠券无效。此值区分大小写',
  declined: '您的银行卡被拒绝。',
  incorrectCvc: '您的银行卡安全码不正确。',
  cardValidationFailed: '银行卡验证失败！',
  checkCardNumber: '银行卡验证失败！请再次检查您的卡号',
  fallback: '处理您的银行卡时出错。请稍后再试。',
  current: '当前套餐',
  started: '您的基础版套餐已开始。',
};

const planCard = (page: Page, plan: string): Locator => page.locator(`[data-plan="${plan}"]`);

async function fillCard(dialog: Locator, texts: Texts, number: string, cvc = '123') {
  await dialog.getByLabel(texts.card.number).fill(number);
  await dialog.getByLabel(texts.card.expiry).fill('12/34');
  await dialog.getByLabel(texts.card.cvc).fill(cvc);
}

/** The alert of a dialog shows exactly this text (not the English one beside a translation). */
async function expectAlert(dialog: Locator, text: string): Promise<void> {
  await expect(dialog.getByRole('alert')).toHaveText(text);
}

for (const [language, texts] of [
  ['en', english],
  ['zh-CN', chinese],
] as const) {
  test(`checkout and update-payment messages (${language})`, async ({ page, request, context }) => {
    const code = createVoucher();
    await signedInUser(page, request, `billing-messages-${language}`);
    await context.addCookies([
      { name: 'linkaudit_lang', value: language, url: test.info().project.use.baseURL ?? '' },
    ]);
    await page.goto('/pricing');
    await planCard(page, 'Basic').getByRole('button', { name: texts.startTrial }).click();
    const checkout = page.getByRole('dialog', { name: texts.checkoutTitle });
    await expect(checkout).toBeVisible();

    // The voucher as the server knows it, but in the wrong case.
    await checkout.getByLabel(texts.voucher).fill(code.toLowerCase());
    await checkout.getByRole('button', { name: texts.apply }).click();
    await expect(checkout.getByText(texts.invalidVoucher, { exact: true })).toBeVisible();
    await checkout.getByLabel(texts.voucher).fill('');

    // A security code that cannot be one: refused by the card form before anything is sent.
    await fillCard(checkout, texts, '4242424242424242', '1');
    await checkout.getByRole('button', { name: texts.submit }).click();
    await expectAlert(checkout, texts.cardValidationFailed);
    // A number too short to be a card's: refused by the card form, naming the number.
    await fillCard(checkout, texts, '42424242');
    await checkout.getByRole('button', { name: texts.submit }).click();
    await expectAlert(checkout, texts.checkCardNumber);

    // The test cards: declined, and a wrong security code (the provider's messages).
    await fillCard(checkout, texts, '4000000000000002');
    await checkout.getByRole('button', { name: texts.submit }).click();
    await expectAlert(checkout, texts.declined);
    await fillCard(checkout, texts, '4000000000000127');
    await checkout.getByRole('button', { name: texts.submit }).click();
    await expectAlert(checkout, texts.incorrectCvc);

    // A good card subscribes; then the card update's call loses its connection.
    await fillCard(checkout, texts, '4242424242424242');
    await checkout.getByRole('button', { name: texts.submit }).click();
    await expect(checkout).toBeHidden({ timeout: 15_000 });
    await expect(page.getByText(texts.started, { exact: true })).toBeVisible();
    await expect(planCard(page, 'Basic')).toContainText(texts.current);
    await planCard(page, 'Basic').getByRole('button', { name: texts.updateCard }).click();
    const update = page.getByRole('dialog', { name: texts.updateTitle });
    await expect(update).toBeVisible();
    await fillCard(update, texts, '4000000000000127');
    await update.getByRole('button', { name: texts.updateSubmit }).click();
    await expectAlert(update, texts.incorrectCvc);
    await page.route('**/api/Account/UpdatePaymentDetails', (route) => route.abort('failed'));
    await fillCard(update, texts, '4242424242424242');
    await update.getByRole('button', { name: texts.updateSubmit }).click();
    await expectAlert(update, texts.fallback);
    await page.screenshot({
      path: test.info().outputPath(`update-card-fallback-${language}.png`),
      fullPage: true,
    });
  });
}

test('a visitor in join-and-pay is told of a refused voucher before an account is made', async ({
  page,
  request,
}) => {
  const email = `join-voucher-${Date.now()}@example.com`;
  await page.goto('/pricing');
  await planCard(page, 'Premium').getByRole('button', { name: english.startTrial }).click();
  const join = page.getByRole('dialog', { name: 'Join LinkAudit with Premium' });
  await join.getByLabel('First name').fill('Grace');
  await join.getByLabel('Last name').fill('Hopper');
  await join.getByLabel('E-mail address').fill(email);
  await join.getByLabel('Password', { exact: true }).fill('first-secret');
  await join.getByLabel('Confirm password').fill('first-secret');
  await join.getByLabel(english.voucher).fill('NO-SUCH-VOUCHER');
  await fillCard(join, english, '4242424242424242');
  await join.getByRole('button', { name: 'Join and start trial' }).click();
  await expect(join.getByText(english.invalidVoucher, { exact: true })).toBeVisible();
  // No account was made: the address cannot sign in.
  const signIn = await request.post('/token', {
    form: { grant_type: 'password', username: email, password: 'first-secret' },
  });
  expect(signIn.status()).toBe(400);
  // The Apply button checks it for a visitor too.
  await join.getByLabel(english.voucher).fill('STILL-NOTHING');
  await join.getByRole('button', { name: english.apply }).click();
  await expect(join.getByText(english.invalidVoucher, { exact: true })).toBeVisible();
});
