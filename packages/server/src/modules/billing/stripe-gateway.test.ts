import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeTestServer, type StripeTestServer } from '../../test-support/stripe-server.js';
import {
  startTestWebhookReceiver,
  type TestWebhookReceiver,
} from '../../test-support/stripe-webhook-receiver.js';
import {
  CardError,
  WebhookSignatureError,
  type GatewayEvent,
  type PaymentGateway,
} from './payment-gateway.js';
import {
  createStripeGateway,
  stripeGatewayConfigFromEnv,
  stripeInvoiceFailedMessage,
  UnhandledWebhookEventError,
} from './stripe-gateway.js';

/**
 * The Stripe adapter against the local Stripe-shaped server: real `stripe` package, real HTTP
 * on 127.0.0.1, webhooks signed as Stripe signs them and read back through `parseWebhook`.
 */

const day = 86_400;

let stripe: StripeTestServer;
let gateway: PaymentGateway;
let receiver: TestWebhookReceiver;

beforeAll(async () => {
  receiver = await startTestWebhookReceiver(() => gateway);
  stripe = await startStripeTestServer({ webhookUrl: receiver.url });
});

afterAll(async () => {
  await stripe.stop();
  await receiver.stop();
});

beforeEach(() => {
  gateway = createStripeGateway(stripe.gatewayConfig());
});

afterEach(async () => {
  await stripe.settled();
  receiver.events.length = 0;
  receiver.refusals.length = 0;
});

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

let keys = 0;
function key(): string {
  keys += 1;
  return `test-key-${Date.now()}-${keys}`;
}

async function customerWithCard(number = '4242424242424242'): Promise<string> {
  const customer = await gateway.createCustomer({
    userId: `u${key()}`,
    email: 'ann@example.com',
    name: 'Ann',
  });
  await gateway.attachCard(customer.id, await stripe.createCardPaymentMethod({ number }), key());
  return customer.id;
}

function eventsOf(type: GatewayEvent['type'], subscriptionId: string): GatewayEvent[] {
  return receiver.events.filter((event) =>
    'invoice' in event
      ? event.invoice.subscriptionId === subscriptionId && event.type === type
      : event.subscription.id === subscriptionId && event.type === type,
  );
}

describe('cards', () => {
  it('attaches a card made by Elements, a test token and a test PaymentMethod id', async () => {
    const customer = await gateway.createCustomer({
      userId: 'u1',
      email: 'ann@example.com',
      name: 'Ann',
    });
    const fromElements = await gateway.attachCard(
      customer.id,
      await stripe.createCardPaymentMethod({
        number: '4242 4242 4242 4242',
        expMonth: 7,
        expYear: 2031,
      }),
      key(),
    );
    expect(fromElements).toEqual({ brand: 'visa', last4: '4242', expMonth: 7, expYear: 2031 });
    expect(await gateway.attachCard(customer.id, 'tok_mastercard', key())).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
    });
    expect(await gateway.attachCard(customer.id, 'pm_card_visa', key())).toMatchObject({
      last4: '4242',
    });
    const stored = stripe.billing.customers.get(customer.id);
    const defaultMethod = stored?.invoice_settings.default_payment_method as string;
    expect(stripe.billing.paymentMethods.get(defaultMethod)?.card.last4).toBe('4242');
  });

  it('refuses a declined card and a wrong CVC with Stripe’s message and code', async () => {
    const customer = await gateway.createCustomer({
      userId: 'u2',
      email: 'bo@example.com',
      name: 'Bo',
    });
    const declined = await stripe.createCardPaymentMethod({ number: '4000000000000002' });
    const error = await gateway.attachCard(customer.id, declined, key()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardError);
    expect(error).toMatchObject({ message: 'Your card was declined.', code: 'card_declined' });

    const wrongCvc = gateway.attachCard(customer.id, 'tok_chargeDeclinedIncorrectCvc', key());
    await expect(wrongCvc).rejects.toMatchObject({
      name: 'CardError',
      message: "Your card's security code is incorrect.",
      code: 'incorrect_cvc',
    });
    expect(
      stripe.billing.customers.get(customer.id)?.invoice_settings.default_payment_method,
    ).toBeNull();
  });

  it('never sends a card number to the API with the secret key', async () => {
    await customerWithCard();
    const secretCalls = stripe.requests.filter(
      (r) => !(r.method === 'POST' && r.path === '/v1/payment_methods'),
    );
    expect(JSON.stringify(secretCalls.map((r) => r.form))).not.toMatch(/4242424242424242/);
  });
});

describe('subscriptions', () => {
  it('starts a trial, changes plan, cancels, reactivates and renews at the trial’s end', async () => {
    const customerId = await customerWithCard();
    const started = await gateway.createSubscription({
      customerId,
      plan: 'Premium',
      trialDays: 7,
      discount: null,
      idempotencyKey: key(),
    });
    expect(started).toMatchObject({
      customerId,
      plan: 'Premium',
      status: 'trialing',
      cancelAtPeriodEnd: false,
      canceledAt: null,
    });
    expect((started.trialEnd!.getTime() - started.currentPeriodStart.getTime()) / 1000).toBe(
      7 * day,
    );
    expect(started.currentPeriodEnd).toEqual(started.trialEnd);

    const changed = await gateway.changePlan(started.id, 'Basic', key());
    expect(changed).toMatchObject({ plan: 'Basic', status: 'trialing' });
    const cancelled = await gateway.cancelAtPeriodEnd(started.id);
    expect(cancelled.cancelAtPeriodEnd).toBe(true);
    expect(cancelled.canceledAt).toBeInstanceOf(Date);
    const reactivated = await gateway.reactivate(started.id);
    expect(reactivated).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null });

    await stripe.advanceClock(7 * day + 60);
    const renewed = await gateway.retrieveSubscription(started.id);
    expect(renewed).toMatchObject({ status: 'active', plan: 'Basic' });
    expect(renewed.currentPeriodStart).toEqual(started.trialEnd);
    const paid = eventsOf('invoice.paid', started.id).map((e) =>
      'invoice' in e ? e.invoice : null,
    );
    expect(paid.at(-1)).toMatchObject({
      status: 'paid',
      amountDueCents: 999,
      amountPaidCents: 999,
      customerId,
    });
    expect(eventsOf('customer.subscription.updated', started.id).length).toBeGreaterThan(0);

    const invoices = await gateway.listInvoices(customerId);
    expect(invoices.map((i) => i.amountDueCents).sort((a, b) => a - b)).toEqual([0, 999]);
  });

  it('charges at once without a trial, less a fixed or a percentage discount', async () => {
    const customerId = await customerWithCard();
    const fixed = await gateway.createSubscription({
      customerId,
      plan: 'Premium',
      trialDays: 0,
      discount: { kind: 'fixed', amountOffCents: 500 },
      idempotencyKey: key(),
    });
    expect(fixed.status).toBe('active');
    const percent = await gateway.createSubscription({
      customerId,
      plan: 'Basic',
      trialDays: 0,
      discount: { kind: 'percent', percentOff: 20 },
      idempotencyKey: key(),
    });
    const amounts = (await gateway.listInvoices(customerId)).map((i) => [
      i.subscriptionId,
      i.amountPaidCents,
    ]);
    expect(amounts).toContainEqual([fixed.id, 2999 - 500]);
    expect(amounts).toContainEqual([percent.id, 999 - 200]);
  });

  it('needs no card with a 100 % voucher', async () => {
    const customer = await gateway.createCustomer({
      userId: 'free',
      email: 'f@example.com',
      name: 'F',
    });
    const subscription = await gateway.createSubscription({
      customerId: customer.id,
      plan: 'Enterprise',
      trialDays: 0,
      discount: { kind: 'percent', percentOff: 100 },
      idempotencyKey: key(),
    });
    expect(subscription.status).toBe('active');
    expect((await gateway.listInvoices(customer.id))[0]).toMatchObject({
      status: 'paid',
      amountDueCents: 0,
    });
  });

  it('refuses a first charge that fails, leaving no subscription behind', async () => {
    const customerId = await customerWithCard('4000000000000341');
    const attempt = gateway.createSubscription({
      customerId,
      plan: 'Basic',
      trialDays: 0,
      discount: null,
      idempotencyKey: key(),
    });
    await expect(attempt).rejects.toMatchObject({ name: 'CardError', code: 'card_declined' });
    const theirs = [...stripe.billing.subscriptions.values()].filter(
      (s) => s.customer === customerId,
    );
    expect(theirs).toEqual([]);
  });

  it('prorates a plan change in the middle of a paid period, invoiced at once', async () => {
    const customerId = await customerWithCard();
    const basic = await gateway.createSubscription({
      customerId,
      plan: 'Basic',
      trialDays: 0,
      discount: null,
      idempotencyKey: key(),
    });
    await stripe.advanceClock(10 * day);
    const premium = await gateway.changePlan(basic.id, 'Premium', key());
    expect(premium.plan).toBe('Premium');
    const proration = (await gateway.listInvoices(customerId)).find(
      (i) => i.subscriptionId === basic.id && i.amountDueCents !== 999,
    );
    // Two thirds of a month (or so) of the price difference: more than nothing, less than all.
    expect(proration?.status).toBe('paid');
    expect(proration!.amountPaidCents).toBeGreaterThan(0);
    expect(proration!.amountPaidCents).toBeLessThan(2999 - 999);
  });

  it('ends a subscription cancelled at period end when the period ends', async () => {
    const customerId = await customerWithCard();
    const subscription = await gateway.createSubscription({
      customerId,
      plan: 'Basic',
      trialDays: 7,
      discount: null,
      idempotencyKey: key(),
    });
    await gateway.cancelAtPeriodEnd(subscription.id);
    await stripe.advanceClock(8 * day);
    const ended = await gateway.retrieveSubscription(subscription.id);
    expect(ended.status).toBe('canceled');
    expect(ended.endedAt).toEqual(subscription.currentPeriodEnd);
    const deleted = eventsOf('customer.subscription.deleted', subscription.id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      subscription: { status: 'canceled', cancelAtPeriodEnd: true },
    });
  });

  it('fails the renewal with the card that attaches but cannot be charged, then pays with a new card', async () => {
    const customerId = await customerWithCard('4000000000000341');
    const subscription = await gateway.createSubscription({
      customerId,
      plan: 'Premium',
      trialDays: 7,
      discount: null,
      idempotencyKey: key(),
    });
    await stripe.advanceClock(7 * day + 1);
    expect((await gateway.retrieveSubscription(subscription.id)).status).toBe('past_due');
    const failed = eventsOf('invoice.payment_failed', subscription.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      invoice: {
        status: 'open',
        amountDueCents: 2999,
        amountPaidCents: 0,
        failureMessage: stripeInvoiceFailedMessage,
      },
    });

    const retryKey = key();
    await expect(gateway.payOpenInvoice(subscription.id, retryKey)).rejects.toBeInstanceOf(
      CardError,
    );
    await gateway.attachCard(
      customerId,
      await stripe.createCardPaymentMethod({ number: '4242424242424242' }),
      key(),
    );
    const paid = await gateway.payOpenInvoice(subscription.id, key());
    expect(paid).toMatchObject({ status: 'paid', amountPaidCents: 2999 });
    expect((await gateway.retrieveSubscription(subscription.id)).status).toBe('active');
    await stripe.settled();
    expect(eventsOf('invoice.paid', subscription.id).at(-1)).toMatchObject({
      invoice: { id: paid!.id },
    });
    expect(await gateway.payOpenInvoice(subscription.id, key())).toBeNull();
  });
});

describe('requests', () => {
  it('uses Stripe’s own features: trial days, coupons, proration invoiced at once, cancel at period end', async () => {
    const customerId = await customerWithCard();
    const subscription = await gateway.createSubscription({
      customerId,
      plan: 'Premium',
      trialDays: 7,
      discount: { kind: 'percent', percentOff: 10 },
      idempotencyKey: key(),
    });
    await gateway.changePlan(subscription.id, 'Enterprise', key());
    await gateway.cancelAtPeriodEnd(subscription.id);
    const sent = (path: string) =>
      stripe.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.form);
    expect(sent('/v1/coupons').at(-1)).toEqual({
      id: 'linkaudit-10-percent-off',
      duration: 'forever',
      percent_off: '10',
    });
    expect(sent('/v1/subscriptions').at(-1)).toEqual({
      customer: customerId,
      items: { 0: { price: stripe.prices.Premium } },
      trial_period_days: '7',
      discounts: { 0: { coupon: 'linkaudit-10-percent-off' } },
      payment_behavior: 'error_if_incomplete',
    });
    const updates = sent(`/v1/subscriptions/${subscription.id}`);
    expect(updates[0]).toMatchObject({
      items: { 0: { price: stripe.prices.Enterprise } },
      proration_behavior: 'always_invoice',
    });
    expect(updates[1]).toEqual({ cancel_at_period_end: 'true' });
  });

  it('is refused, as Stripe refuses it, a parameter Stripe does not know', async () => {
    const response = await fetch(`${stripe.origin}/v1/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}` },
      body: new URLSearchParams({ customer: 'cus_1', coupon: 'old-style' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'parameter_unknown', param: 'coupon' },
    });
    const noKey = await fetch(`${stripe.origin}/v1/customers`, { method: 'POST' });
    expect(noKey.status).toBe(401);
  });
});

describe('idempotency', () => {
  it('sends an Idempotency-Key with every mutating request', async () => {
    const from = stripe.requests.length;
    const customerId = await customerWithCard();
    const subscription = await gateway.createSubscription({
      customerId,
      plan: 'Basic',
      trialDays: 7,
      discount: { kind: 'fixed', amountOffCents: 100 },
      idempotencyKey: key(),
    });
    await gateway.changePlan(subscription.id, 'Premium', key());
    await gateway.cancelAtPeriodEnd(subscription.id);
    await gateway.reactivate(subscription.id);
    const mutating = stripe.requests
      .slice(from)
      .filter((r) => r.method === 'POST' && !(r.path === '/v1/payment_methods' && r.form.card));
    expect(mutating.length).toBeGreaterThan(6);
    expect(mutating.filter((r) => !r.idempotencyKey)).toEqual([]);
  });

  it('answers a retried call with the first answer, charging once', async () => {
    const customerId = await customerWithCard();
    const retried = key();
    const input = {
      customerId,
      plan: 'Premium' as const,
      trialDays: 0,
      discount: null,
      idempotencyKey: retried,
    };
    const first = await gateway.createSubscription(input);
    const again = await gateway.createSubscription(input);
    expect(again.id).toBe(first.id);
    expect(
      [...stripe.billing.subscriptions.values()].filter((s) => s.customer === customerId),
    ).toHaveLength(1);
    expect(
      (await gateway.listInvoices(customerId)).filter((i) => i.status === 'paid'),
    ).toHaveLength(1);
    expect(
      stripe.requests.filter((r) => r.replayed && r.idempotencyKey === `${retried}:subscription`),
    ).toHaveLength(1);

    const cardKey = key();
    const card = await stripe.createCardPaymentMethod({ number: '5555555555554444' });
    await gateway.attachCard(customerId, card, cardKey);
    await gateway.attachCard(customerId, card, cardKey);
    expect(
      stripe.requests.filter((r) => r.replayed && r.idempotencyKey?.startsWith(cardKey)),
    ).toHaveLength(2);
  });
});

describe('webhooks', () => {
  async function oneDelivery() {
    const customerId = await customerWithCard();
    const subscription = await gateway.createSubscription({
      customerId,
      plan: 'Basic',
      trialDays: 0,
      discount: null,
      idempotencyKey: key(),
    });
    await stripe.settled();
    const delivery = stripe.deliveries.find(
      (d) =>
        d.event.type === 'invoice.paid' &&
        'parent' in d.event.data.object &&
        d.event.data.object.parent.subscription_details.subscription === subscription.id,
    );
    if (!delivery) throw new Error('no invoice.paid delivery');
    return { delivery, subscription };
  }

  it('reads a signed event into our event type', async () => {
    const { delivery, subscription } = await oneDelivery();
    expect(delivery.status).toBe(200);
    // A gateway of its own: this one has not read the delivery the receiver got.
    const reader = createStripeGateway(stripe.gatewayConfig());
    const event = reader.parseWebhook(
      Buffer.from(delivery.body),
      stripe.signatureHeader(delivery.body, unixNow()),
    );
    expect(event).toMatchObject({
      id: delivery.event.id,
      type: 'invoice.paid',
      invoice: { subscriptionId: subscription.id, amountPaidCents: 999 },
    });
  });

  it('refuses a bad signature, a missing one, and one signed too long ago', async () => {
    const { delivery } = await oneDelivery();
    const body = Buffer.from(delivery.body);
    const now = unixNow();
    const otherSecret = createStripeGateway({
      ...stripe.gatewayConfig(),
      webhookSecret: 'whsec_other',
    });
    expect(() =>
      otherSecret.parseWebhook(body, stripe.signatureHeader(delivery.body, now)),
    ).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(body, undefined)).toThrow(WebhookSignatureError);
    const tampered = Buffer.from(delivery.body.replace('"amount_paid": 999', '"amount_paid": 1'));
    expect(() =>
      gateway.parseWebhook(tampered, stripe.signatureHeader(delivery.body, now)),
    ).toThrow(WebhookSignatureError);
    expect(() =>
      gateway.parseWebhook(body, stripe.signatureHeader(delivery.body, now - 301)),
    ).toThrow(/Timestamp outside the tolerance zone/);
  });

  it('refuses a delivery sent again as it was, and accepts Stripe’s re-signed retry', async () => {
    const { delivery } = await oneDelivery();
    // The receiver already read this exact request once.
    expect(receiver.events.some((e) => e.id === delivery.event.id)).toBe(true);
    const replay = await fetch(receiver.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
      body: delivery.body,
    });
    expect(replay.status).toBe(400);
    expect(receiver.refusals.at(-1)).toBeInstanceOf(WebhookSignatureError);
    expect(receiver.refusals.at(-1)?.message).toMatch(/Replayed/);

    // A retry by Stripe is signed again when it is sent, later (timestamps are in seconds).
    const sentAt = Number(/t=(\d+)/.exec(delivery.signature)?.[1]);
    const retry = await stripe.redeliver(delivery.event.id, sentAt + 1);
    expect(retry.signature).not.toBe(delivery.signature);
    expect(retry.status).toBe(200);
  });

  it('tells an event type it does not handle apart from a bad signature', () => {
    const body = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect(() =>
      gateway.parseWebhook(Buffer.from(body), stripe.signatureHeader(body, unixNow())),
    ).toThrow(UnhandledWebhookEventError);
  });
});

describe('configuration', () => {
  it('is off without a secret key, complete or refused with one', () => {
    expect(stripeGatewayConfigFromEnv({})).toBeNull();
    expect(() => stripeGatewayConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY/,
    );
    const config = stripeGatewayConfigFromEnv(stripe.environment());
    expect(config).toMatchObject({
      secretKey: stripe.secretKey,
      prices: stripe.prices,
      api: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
    });
    const production = stripeGatewayConfigFromEnv({ ...stripe.environment(), STRIPE_API_HOST: '' });
    expect(production?.api).toBeUndefined();
  });
});
