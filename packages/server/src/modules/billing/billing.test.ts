import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { BillingClock } from './billing-clock.js';
import { billingMessages } from './billing.messages.js';
import { billingMailTexts } from './billing-mail.js';
import { priceCents } from '../../test-support/payment-gateway-contract.js';
import { cardMessages, testCards } from './test-cards.js';

let sequence = 0;

describe.each(testDialects())('billing over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let smtp: SmtpCapture;
  let admin: string;
  const adminEmail = `billing-boss-${dialect}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(dialect, { SMTP_URL: smtp.url, ADMIN_EMAILS: adminEmail });
    api = apiClient(server.baseUrl);
    admin = (await join('Boss', 'en', adminEmail)).token;
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  async function join(
    firstName = 'Ada',
    lang: 'en' | 'zh-CN' = 'en',
    address?: string,
  ): Promise<{ email: string; token: string }> {
    const email = address ?? `payer.${dialect}.${process.pid}.${++sequence}@example.com`;
    const password = 'secret1';
    const registered = await api.post('/api/account/register', {
      firstName,
      lastName: 'Payer',
      username: email,
      password,
      confirmPassword: password,
      lang,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    await smtp.nextMailTo(email); // the confirmation mail
    const signedIn = await api.form('/token', {
      grant_type: 'password',
      username: email,
      password,
    });
    return { email, token: (signedIn.body as { access_token: string }).access_token };
  }

  async function cardToken(number: string): Promise<string> {
    const answer = await api.post('/api/billing/sandbox/tokens', {
      number,
      expMonth: 12,
      expYear: 2099,
      cvc: '123',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return String(answer.body.id);
  }

  async function voucher(code: string, type: number, value: number, extra = {}) {
    const created = await api.post('/api/admin/vouchers', { code, type, value, ...extra }, admin);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  }

  async function pay(
    token: string,
    body: { plan: string; card?: string; voucher?: string; idempotencyKey?: string },
  ) {
    return api.post(
      '/api/Account/ProcessPayment',
      {
        plan: body.plan,
        cardToken: body.card ? await cardToken(body.card) : null,
        billingUser: { name: 'Ada Payer', email: 'billing@example.com' },
        voucher: body.voucher ?? null,
        idempotencyKey: body.idempotencyKey ?? null,
      },
      token,
    );
  }

  const userInfo = async (token: string): Promise<UserInfo> =>
    (await api.get('/api/account/userInfo', token)).body as UserInfo;

  /** Moves the sandbox's billing clock and runs what fell due, as the scheduler would. */
  async function advanceDays(days: number): Promise<void> {
    await new BillingClock(server.database.db, server.clock).advanceDays(days);
    await server.app.billingRenewals.tick();
  }

  it('tells the web app which card form to show', async () => {
    const config = await api.get('/api/billing/config');
    expect(config.body).toEqual({ gateway: 'sandbox', publishableKey: null });
  });

  it('tokenises a sandbox card without keeping its number, and refuses a mistyped one', async () => {
    const token = await cardToken(testCards.succeeds);
    const stored = await server.database.db
      .selectFrom('sandbox_cards')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(JSON.stringify(stored)).not.toContain(testCards.succeeds);
    const mistyped = await api.post('/api/billing/sandbox/tokens', {
      number: '4242424242424241',
      expMonth: 12,
      expYear: 2099,
      cvc: '123',
    });
    expect(mistyped.status).toBe(400);
    expect(mistyped.body.message).toBe('Your card number is incorrect.');
  });

  it('validates vouchers case sensitively, with expiry and a use limit; only admins create them', async () => {
    const { token } = await join();
    const code = `Trial${dialect}`;
    await voucher(code, 0, 30);
    expect((await api.get(`/api/Account/ValidateCoupon?coupon=${code}`, token)).body).toEqual({
      type: 0,
      value: 30,
    });
    const wrongCase = await api.get(
      `/api/Account/ValidateCoupon?coupon=${code.toLowerCase()}`,
      token,
    );
    expect(wrongCase.status).toBe(404);
    expect(wrongCase.body.message).toBe(billingMessages.invalidVoucher);
    expect(wrongCase.body.message).toBe('Invalid Voucher. This value is case sensitive');

    await voucher(`Old${dialect}`, 1, 100, { expiresAt: '2020-01-01T00:00:00Z' });
    expect((await api.get(`/api/Account/ValidateCoupon?coupon=Old${dialect}`, token)).status).toBe(
      404,
    );
    // A visitor may ask too (join-and-pay checks the voucher before the account is made).
    expect((await api.get(`/api/Account/ValidateCoupon?coupon=${code}`)).body).toEqual({
      type: 0,
      value: 30,
    });
    expect((await api.get(`/api/Account/ValidateCoupon?coupon=${code}x`)).status).toBe(404);
    const refused = await api.post('/api/admin/vouchers', { code: 'X1', type: 2, value: 5 }, token);
    expect(refused.status).toBe(403);
    const duplicate = await api.post('/api/admin/vouchers', { code, type: 0, value: 3 }, admin);
    expect(duplicate.status).toBe(409);

    // One use left: the first checkout takes it, the next finds the voucher invalid.
    await voucher(`Once${dialect}`, 2, 50, { maxUses: 1 });
    const first = await join();
    expect(
      (
        await pay(first.token, {
          plan: 'Basic',
          card: testCards.succeeds,
          voucher: `Once${dialect}`,
        })
      ).status,
    ).toBe(200);
    const second = await join();
    const late = await pay(second.token, {
      plan: 'Basic',
      card: testCards.succeeds,
      voucher: `Once${dialect}`,
    });
    expect(late.status).toBe(404);
    expect(late.body.message).toBe(billingMessages.invalidVoucher);
    expect((await userInfo(second.token)).paidPlanId).toBe('Free');
  });

  it('checks out with a trial voucher: Premium trial with its days, once for a double click', async () => {
    const { token } = await join();
    const code = `Month${dialect}`;
    await voucher(code, 0, 30);
    const idempotencyKey = `checkout-${dialect}-1`;
    const card = testCards.succeeds;
    const [a, b] = await Promise.all([
      pay(token, { plan: 'Premium', card, voucher: code, idempotencyKey }),
      pay(token, { plan: 'Premium', card, voucher: code, idempotencyKey }),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.paymentGatewaySubscriptionId).toBe(a.body.paymentGatewaySubscriptionId);
    const info = await userInfo(token);
    expect(info).toMatchObject({
      paidPlanId: 'Premium',
      daysOfTrialLeft: 30,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      paymentFailed: false,
      voucher: code,
      paymentGatewaySubscriptionId: a.body.paymentGatewaySubscriptionId,
    });
    const used = await api.get('/api/admin/vouchers', admin);
    const vouchers = used.body as Array<{ code: string; uses: number }>;
    expect(vouchers.find((v) => v.code === code)?.uses).toBe(1);
    // A second checkout with a new key is refused: the plan is changed instead.
    const again = await pay(token, { plan: 'Basic', card });
    expect(again.status).toBe(409);
  });

  it('answers the card messages of SPEC §8 and asks for a card unless the voucher makes it free', async () => {
    const { token } = await join();
    const declined = await pay(token, { plan: 'Basic', card: testCards.declined });
    expect(declined.status).toBe(400);
    expect(declined.body.message).toBe(cardMessages.declined);
    const cvc = await pay(token, { plan: 'Basic', card: testCards.wrongCvc });
    expect(cvc.body.message).toBe(cardMessages.incorrectCvc);
    const noCard = await pay(token, { plan: 'Basic' });
    expect(noCard.status).toBe(400);
    expect(noCard.body.message).toBe('Card validation failed!');
    expect((await userInfo(token)).paidPlanId).toBe('Free');

    await voucher(`Free${dialect}`, 2, 100);
    const free = await pay(token, { plan: 'Enterprise', voucher: `Free${dialect}` });
    expect(free.status, JSON.stringify(free.body)).toBe(200);
    expect(free.body).toMatchObject({ paidPlanId: 'Enterprise', paymentFailed: false });
  });

  it('changes plan at once, cancels to the period end, refuses a second cancel, reactivates', async () => {
    const { token } = await join();
    expect((await pay(token, { plan: 'Premium', card: testCards.succeeds })).status).toBe(200);
    const changed = await api.post(
      '/api/Account/ChangeSubscription?newPlan=Basic',
      undefined,
      token,
    );
    expect(changed.status).toBe(200);
    expect(changed.body.paidPlanId).toBe('Basic');
    expect((await userInfo(token)).paidPlanId).toBe('Basic');
    const badPlan = await api.post(
      '/api/Account/ChangeSubscription?newPlan=Gold',
      undefined,
      token,
    );
    expect(badPlan.status).toBe(400);

    const cancelled = await api.post('/api/Account/CancelSubscription', undefined, token);
    expect(cancelled.status).toBe(200);
    const info = await userInfo(token);
    expect(typeof cancelled.body).toBe('string');
    expect(new Date(cancelled.body as string).getTime()).toBeGreaterThan(Date.now());
    expect(info).toMatchObject({ paidPlanId: 'Basic', cancelAtPeriodEnd: true });
    expect(info.canceledAt).not.toBeNull();
    const twice = await api.post('/api/Account/CancelSubscription', undefined, token);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Already Cancelled');

    const reactivated = await api.post('/api/Account/ReactivateSubscription', undefined, token);
    expect(reactivated.body).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null });
    const notCancelled = await api.post('/api/Account/ReactivateSubscription', undefined, token);
    expect(notCancelled.status).toBe(409);
  });

  it('refuses billing calls without a subscription or sign-in', async () => {
    const { token } = await join();
    expect((await api.post('/api/Account/CancelSubscription', undefined, token)).status).toBe(400);
    expect(
      (await api.post('/api/Account/ChangeSubscription?newPlan=Basic', undefined, token)).status,
    ).toBe(400);
    expect((await api.post('/api/Account/ReactivateSubscription')).status).toBe(401);
    expect(
      (await api.post('/api/Account/UpdatePaymentDetails', { cardToken: 'tok_x' }, token)).status,
    ).toBe(400);
  });

  it('fails the renewal with the card that fails later, mails it, and recovers with a new card (zh-CN)', async () => {
    const { email, token } = await join('小明', 'zh-CN');
    expect((await pay(token, { plan: 'Premium', card: testCards.failsAtRenewal })).status).toBe(
      200,
    );
    await advanceDays(8);
    const failed = await userInfo(token);
    expect(failed).toMatchObject({
      paymentFailed: true,
      paidPlanId: 'Premium',
      daysOfTrialLeft: 0,
    });
    const notice = await smtp.nextMailTo(email);
    expect(notice.subject).toBe(billingMailTexts['zh-CN']['payment-failed'].subject);
    expect(notice.text).toContain('$29.99');
    expect(notice.text).toContain(cardMessages.declined);

    const declined = await api.post(
      '/api/Account/UpdatePaymentDetails',
      { cardToken: await cardToken(testCards.declined) },
      token,
    );
    expect(declined.status).toBe(400);
    expect(declined.body.message).toBe(cardMessages.declined);
    expect((await userInfo(token)).paymentFailed).toBe(true);

    const fixed = await api.post(
      '/api/Account/UpdatePaymentDetails',
      { cardToken: await cardToken(testCards.succeeds), idempotencyKey: 'update-card-1' },
      token,
    );
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({ paymentFailed: false, paidPlanId: 'Premium' });
    const receipt = await smtp.nextMailTo(email);
    expect(receipt.subject).toBe(billingMailTexts['zh-CN'].receipt.subject);
    expect(receipt.text).toContain('$29.99');
  });

  it('ends a cancelled plan at the period end (to Free) and re-creates it without checkout', async () => {
    const { email, token } = await join();
    expect((await pay(token, { plan: 'Basic', card: testCards.succeeds })).status).toBe(200);
    await advanceDays(8);
    const receipt = await smtp.nextMailTo(email);
    expect(receipt.subject).toBe(billingMailTexts.en.receipt.subject);
    expect(receipt.text).toContain(`$${(priceCents('Basic') / 100).toFixed(2)}`);

    await api.post('/api/Account/CancelSubscription', undefined, token);
    await advanceDays(32);
    const ended = await userInfo(token);
    expect(ended).toMatchObject({
      paidPlanId: 'Free',
      cancelAtPeriodEnd: false,
      daysOfTrialLeft: 0,
    });
    expect(ended.paymentGatewaySubscriptionId).toBeTruthy();

    const recreated = await api.post(
      '/api/Account/CreateSubscription?planId=Premium',
      undefined,
      token,
    );
    expect(recreated.status, JSON.stringify(recreated.body)).toBe(200);
    expect(recreated.body).toMatchObject({ paidPlanId: 'Premium', daysOfTrialLeft: 0 });
    expect(recreated.body.paymentGatewaySubscriptionId).not.toBe(
      ended.paymentGatewaySubscriptionId,
    );
    const paid = await smtp.nextMailTo(email);
    expect(paid.text).toContain(`$${(priceCents('Premium') / 100).toFixed(2)}`);

    // A late failure of the ended subscription leaves the new one in good standing.
    const { customer_id: customerId } = await server.database.db
      .selectFrom('billing_accounts')
      .select('customer_id')
      .where('subscription_id', '=', String(recreated.body.paymentGatewaySubscriptionId))
      .executeTakeFirstOrThrow();
    const lateFailure = await server.app.billing.applyEvent({
      id: `evt_late_${dialect}_${sequence}`,
      type: 'invoice.payment_failed',
      invoice: {
        id: `in_late_${dialect}_${sequence}`,
        customerId,
        subscriptionId: String(ended.paymentGatewaySubscriptionId),
        status: 'open',
        amountDueCents: priceCents('Basic'),
        amountPaidCents: 0,
        currency: 'usd',
        periodStart: new Date(),
        periodEnd: new Date(),
        failureMessage: 'Your card was declined.',
        createdAt: new Date(),
      },
    });
    expect(lateFailure).toBe('applied');
    expect(await userInfo(token)).toMatchObject({ paidPlanId: 'Premium', paymentFailed: false });
  });

  it('applies each provider event once; the sandbox takes no webhooks', async () => {
    const { token } = await join();
    const paid = await pay(token, { plan: 'Basic', card: testCards.succeeds });
    const event = {
      id: `evt_replay_${dialect}`,
      type: 'customer.subscription.updated' as const,
      subscription: {
        id: String(paid.body.paymentGatewaySubscriptionId),
        customerId: 'cus_x',
        plan: 'Basic' as const,
        status: 'active' as const,
        trialEnd: null,
        currentPeriodStart: new Date(),
        currentPeriodEnd: new Date(),
        cancelAtPeriodEnd: false,
        canceledAt: null,
        endedAt: null,
      },
    };
    expect(await server.app.billing.applyEvent(event)).toBe('applied');
    expect(await server.app.billing.applyEvent(event)).toBe('replay');
    const webhook = await api.post('/api/billing/webhook', { id: 'evt_1' });
    expect(webhook.status).toBe(400);
  });
});
