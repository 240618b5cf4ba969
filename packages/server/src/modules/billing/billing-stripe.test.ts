import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startStripeTestServer, type StripeTestServer } from '../../test-support/stripe-server.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { testCards } from './test-cards.js';

/**
 * The billing routes with STRIPE_SECRET_KEY set: the Stripe adapter against the local
 * Stripe-shaped server, whose signed webhooks reach POST /api/billing/webhook over HTTP.
 */
describe.each(testDialects())('billing with the Stripe adapter (%s)', (dialect) => {
  let stripe: StripeTestServer;
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    stripe = await startStripeTestServer({ webhookUrl: null });
    server = await startTestServer(dialect, stripe.environment());
    stripe.webhookUrl = `${server.baseUrl}/api/billing/webhook`;
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await stripe.settled();
    await server.stop();
    await stripe.stop();
  });

  const userInfo = async (token: string): Promise<UserInfo> =>
    (await api.get('/api/account/userInfo', token)).body as UserInfo;

  it('shows the Stripe card form and has no sandbox tokens', async () => {
    expect((await api.get('/api/billing/config')).body).toEqual({
      gateway: 'stripe',
      publishableKey: stripe.publishableKey,
    });
    const sandbox = await api.post('/api/billing/sandbox/tokens', {
      number: testCards.succeeds,
      expMonth: 12,
      expYear: 2099,
      cvc: '123',
    });
    expect(sandbox.status).toBe(404);
  });

  it('applies signed webhooks once, refuses bad and stale signatures', async () => {
    const user = await signUp(api, 'stripe');
    const paid = await api.post(
      '/api/Account/ProcessPayment',
      {
        plan: 'Premium',
        cardToken: await stripe.createCardPaymentMethod({ number: testCards.failsAtRenewal }),
        billingUser: { name: 'Ada', email: user.email },
      },
      user.token,
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ paidPlanId: 'Premium', paymentFailed: false });
    expect(paid.body.daysOfTrialLeft).toBeGreaterThanOrEqual(6);

    // The trial ends at Stripe; its failed charge reaches us only as a signed webhook.
    await stripe.advanceClock(8 * 86_400);
    await stripe.settled();
    const failedDelivery = stripe.deliveries.find(
      (delivery) => delivery.event.type === 'invoice.payment_failed',
    );
    expect(failedDelivery?.status).toBe(200);
    expect(await userInfo(user.token)).toMatchObject({
      paymentFailed: true,
      paidPlanId: 'Premium',
    });

    // Stripe's retry, signed afresh (by our clock, as Stripe's real clock would be).
    const replay = await stripe.redeliver(
      failedDelivery?.event.id ?? '',
      Math.floor(Date.now() / 1000),
    );
    expect(replay.status).toBe(200);
    const applied = await server.database.db
      .selectFrom('billing_applied_events')
      .select('event_id')
      .where('event_id', '=', failedDelivery?.event.id ?? '')
      .execute();
    expect(applied).toHaveLength(1);

    const body = failedDelivery?.body ?? '';
    const forged = await fetch(`${server.baseUrl}/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body,
    });
    expect(forged.status).toBe(400);
    // Signed an hour ago by our clock: past the adapter's tolerance, refused like a forgery.
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    const stale = await stripe.redeliver(failedDelivery?.event.id ?? '', anHourAgo);
    expect(stale.status).toBe(400);

    const fixed = await api.post(
      '/api/Account/UpdatePaymentDetails',
      { cardToken: await stripe.createCardPaymentMethod({ number: testCards.succeeds }) },
      user.token,
    );
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.paymentFailed).toBe(false);
  });
});
