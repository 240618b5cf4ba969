import { createHash, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { z } from 'zod';
import { paidPlanIds, type PaidPlanId } from '@linkaudit/core';
import { systemClock, type Clock } from '../../clock.js';
import {
  CardError,
  WebhookSignatureError,
  type CardSummary,
  type Discount,
  type GatewayEvent,
  type GatewayInvoice,
  type GatewaySubscription,
  type GatewaySubscriptionStatus,
  type PaymentGateway,
} from './payment-gateway.js';

/**
 * The Stripe adapter of `PaymentGateway` (issue 22), on the official `stripe` package.
 *
 * Cards: the browser turns the card into a PaymentMethod (`pm_…`) or a token (`tok_…`) with
 * Stripe Elements and the publishable key, so a card number never reaches our server; we only
 * attach that id to the customer. Prices live in Stripe (one Price id per paid plan), so
 * amounts are Stripe's, never a request's. Every mutating call carries an Idempotency-Key.
 */
export interface StripeGatewayConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** The Stripe Price id of each paid plan (monthly, USD). */
  prices: Record<PaidPlanId, string>;
  /** Another API address than api.stripe.com (tests: the local Stripe-shaped server). */
  api?: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
  /** How old a webhook's signed timestamp may be, in seconds (Stripe's default: 300). */
  webhookToleranceSeconds?: number;
  /** Where "now" comes from when a webhook's age is checked. */
  clock?: Clock;
}

/** A webhook that verified but is of a type the billing service does not act on. */
export class UnhandledWebhookEventError extends Error {
  constructor(readonly eventType: string) {
    super(`Webhook event type ${eventType} is not handled`);
    this.name = 'UnhandledWebhookEventError';
  }
}

const stripeEnvironmentSchema = z.object({
  STRIPE_SECRET_KEY: z.string().min(1),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1),
  STRIPE_WEBHOOK_SECRET: z.string().min(1),
  STRIPE_PRICE_BASIC: z.string().min(1),
  STRIPE_PRICE_PREMIUM: z.string().min(1),
  STRIPE_PRICE_ENTERPRISE: z.string().min(1),
  STRIPE_API_HOST: z.string().min(1).optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
});

/**
 * The Stripe settings from the environment, or null when `STRIPE_SECRET_KEY` is not set (the
 * sandbox gateway is then used). With the key set, every other setting is required: a
 * half-configured Stripe must stop the server at start, not fail a customer's payment later.
 */
export function stripeGatewayConfigFromEnv(
  env: Record<string, string | undefined>,
): StripeGatewayConfig | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  // An empty variable counts as unset.
  const set = Object.fromEntries(Object.entries(env).filter((entry) => entry[1] !== ''));
  const parsed = stripeEnvironmentSchema.safeParse(set);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid Stripe configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const api = e.STRIPE_API_HOST
    ? {
        host: e.STRIPE_API_HOST,
        protocol: e.STRIPE_API_PROTOCOL ?? 'https',
        port: e.STRIPE_API_PORT ?? (e.STRIPE_API_PROTOCOL === 'http' ? 80 : 443),
      }
    : undefined;
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    prices: {
      Basic: e.STRIPE_PRICE_BASIC,
      Premium: e.STRIPE_PRICE_PREMIUM,
      Enterprise: e.STRIPE_PRICE_ENTERPRISE,
    },
    api,
  };
}

const defaultToleranceSeconds = 300;

export function createStripeGateway(config: StripeGatewayConfig): PaymentGateway {
  const stripe = new Stripe(config.secretKey, {
    ...(config.api ?? {}),
    // The SDK retries a failed connection itself, with the same Idempotency-Key we set.
    maxNetworkRetries: 2,
    telemetry: false,
  });
  const clock = config.clock ?? systemClock;
  const tolerance = config.webhookToleranceSeconds ?? defaultToleranceSeconds;
  const planOfPrice = new Map(paidPlanIds.map((plan) => [config.prices[plan], plan]));
  const deliveries = new DeliveryReplayGuard(tolerance);

  function toSubscription(subscription: Stripe.Subscription): GatewaySubscription {
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscription.id} has no item`);
    const plan = planOfPrice.get(item.price.id);
    if (!plan) throw new Error(`Stripe price ${item.price.id} is not one of our plans' prices`);
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer),
      plan,
      status: statusOf(subscription.status),
      trialEnd: dateOrNull(subscription.trial_end),
      // Since API version 2025-03-31 the period is the item's, not the subscription's.
      currentPeriodStart: dateOf(item.current_period_start),
      currentPeriodEnd: dateOf(item.current_period_end),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      canceledAt: dateOrNull(subscription.canceled_at),
      endedAt: dateOrNull(subscription.ended_at),
    };
  }

  /** A card failure becomes our `CardError` with Stripe's message, shown to the user. */
  async function cardCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        // Stripe's error code (card_declined, incorrect_cvc, expired_card …); the issuer's
        // decline_code (generic_decline, insufficient_funds …) is a detail of card_declined.
        throw new CardError(error.message, error.code || error.decline_code || 'card_declined');
      }
      throw error;
    }
  }

  async function paymentMethodOf(cardToken: string, idempotencyKey: string): Promise<string> {
    if (!cardToken.startsWith('tok_')) return cardToken;
    // A legacy card token (Elements' createToken) becomes a PaymentMethod first.
    const method = await stripe.paymentMethods.create(
      { type: 'card', card: { token: cardToken } },
      { idempotencyKey: `${idempotencyKey}:payment-method` },
    );
    return method.id;
  }

  async function couponFor(discount: Discount, idempotencyKey: string): Promise<string> {
    // One coupon per distinct discount, named by it, so vouchers of equal value share one.
    const id =
      discount.kind === 'fixed'
        ? `linkaudit-usd-${discount.amountOffCents}-off`
        : `linkaudit-${discount.percentOff}-percent-off`;
    try {
      return (await stripe.coupons.retrieve(id)).id;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      if (error.code !== 'resource_missing') throw error;
    }
    const terms =
      discount.kind === 'fixed'
        ? { amount_off: discount.amountOffCents, currency: 'usd' }
        : { percent_off: discount.percentOff };
    try {
      const coupon = await stripe.coupons.create(
        { id, duration: 'forever', ...terms },
        { idempotencyKey: `${idempotencyKey}:coupon` },
      );
      return coupon.id;
    } catch (error) {
      // Another checkout made the same coupon meanwhile: it is the one wanted.
      const madeMeanwhile =
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.code === 'resource_already_exists';
      if (madeMeanwhile) return id;
      throw error;
    }
  }

  const gateway: PaymentGateway = {
    kind: 'stripe',

    async createCustomer({ userId, email, name }) {
      // No caller key here: one derived from what is sent makes a retried create return the
      // customer already made (Stripe keeps keys 24 hours), while changed details make another.
      const key = `customer:${userId}:${digest(`${email}\n${name}`)}`;
      const customer = await stripe.customers.create(
        { email, name, metadata: { linkauditUserId: userId } },
        { idempotencyKey: key },
      );
      return { id: customer.id };
    },

    async attachCard(customerId, cardToken, idempotencyKey) {
      return cardCall(async () => {
        const methodId = await paymentMethodOf(cardToken, idempotencyKey);
        const method = await stripe.paymentMethods.attach(
          methodId,
          { customer: customerId },
          { idempotencyKey: `${idempotencyKey}:attach` },
        );
        await stripe.customers.update(
          customerId,
          { invoice_settings: { default_payment_method: method.id } },
          { idempotencyKey: `${idempotencyKey}:default-card` },
        );
        return cardSummaryOf(method);
      });
    },

    async createSubscription({ customerId, plan, trialDays, discount, idempotencyKey }) {
      const coupon = discount ? await couponFor(discount, idempotencyKey) : null;
      const subscription = await cardCall(() =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: config.prices[plan] }],
            ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
            ...(coupon ? { discounts: [{ coupon }] } : {}),
            // A first charge that fails is refused (402) rather than leaving an incomplete
            // subscription behind: the user sees the card's message and tries another card.
            payment_behavior: 'error_if_incomplete',
          },
          { idempotencyKey: `${idempotencyKey}:subscription` },
        ),
      );
      return toSubscription(subscription);
    },

    async changePlan(subscriptionId, plan, idempotencyKey) {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item`);
      const updated = await cardCall(() =>
        stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, price: config.prices[plan] }],
            // The difference for the rest of the period is invoiced (or credited) at once.
            proration_behavior: 'always_invoice',
            payment_behavior: 'error_if_incomplete',
          },
          { idempotencyKey: `${idempotencyKey}:change-plan` },
        ),
      );
      return toSubscription(updated);
    },

    async cancelAtPeriodEnd(subscriptionId) {
      // A fresh key per call: an SDK retry of this request is deduplicated, a later cancel
      // (after a reactivation) is not mistaken for the first one.
      const updated = await stripe.subscriptions.update(
        subscriptionId,
        { cancel_at_period_end: true },
        { idempotencyKey: `cancel:${randomUUID()}` },
      );
      return toSubscription(updated);
    },

    async reactivate(subscriptionId) {
      const updated = await stripe.subscriptions.update(
        subscriptionId,
        { cancel_at_period_end: false },
        { idempotencyKey: `reactivate:${randomUUID()}` },
      );
      return toSubscription(updated);
    },

    async retrieveSubscription(subscriptionId) {
      return toSubscription(await stripe.subscriptions.retrieve(subscriptionId));
    },

    async payOpenInvoice(subscriptionId, idempotencyKey) {
      const recent = await stripe.invoices.list({ subscription: subscriptionId, limit: 10 });
      // The open invoice; with none, the newest one, so a retried call whose first attempt
      // paid it gets that answer back from Stripe's idempotency instead of "nothing to pay".
      const target = recent.data.find((invoice) => invoice.status === 'open') ?? recent.data[0];
      if (!target) return null;
      try {
        const paid = await cardCall(() =>
          stripe.invoices.pay(target.id, {}, { idempotencyKey: `${idempotencyKey}:pay` }),
        );
        return toInvoice(paid);
      } catch (error) {
        const alreadySettled =
          target.status !== 'open' && error instanceof Stripe.errors.StripeInvalidRequestError;
        if (alreadySettled) return null;
        throw error;
      }
    },

    async listInvoices(customerId) {
      const invoices = await stripe.invoices.list({ customer: customerId, limit: 100 });
      return invoices.data.map(toInvoice);
    },

    parseWebhook(rawBody, signatureHeader) {
      if (!signatureHeader) throw new WebhookSignatureError('No Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          config.webhookSecret,
          tolerance,
          undefined,
          // In milliseconds, whatever the name suggests (Webhooks.js divides it by 1000).
          clock.now().getTime(),
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new WebhookSignatureError(error.message);
        }
        throw error;
      }
      deliveries.admit(event.id, signatureHeader, clock.now());
      return toGatewayEvent(event, toInvoice, toSubscription);
    },

    onEvent() {
      // Stripe tells us of renewals and failed payments by webhook (parseWebhook), not from
      // inside this process, so there is nothing to subscribe to.
    },
  };
  return gateway;
}

/**
 * Refuses a delivery seen before: the same event with the same signed timestamp is a captured
 * request sent again. Stripe's own retries sign again with a new timestamp and pass; telling a
 * retry of an event already acted on from a first delivery is the billing service's job (it
 * records the ids it processed). Entries older than the tolerance are dropped: those requests
 * fail the timestamp check anyway.
 */
class DeliveryReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly toleranceSeconds: number) {}

  admit(eventId: string, signatureHeader: string, now: Date): void {
    const timestamp = /(?:^|,)t=(\d+)/.exec(signatureHeader)?.[1] ?? '';
    const key = `${eventId}@${timestamp}`;
    const nowMs = now.getTime();
    for (const [seenKey, at] of this.seen) {
      if (nowMs - at > this.toleranceSeconds * 1000) this.seen.delete(seenKey);
    }
    if (this.seen.has(key)) throw new WebhookSignatureError(`Replayed delivery of ${eventId}`);
    this.seen.set(key, nowMs);
  }
}

function toGatewayEvent(
  event: Stripe.Event,
  toInvoice: (invoice: Stripe.Invoice) => GatewayInvoice,
  toSubscription: (subscription: Stripe.Subscription) => GatewaySubscription,
): GatewayEvent {
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return { id: event.id, type: event.type, invoice: toInvoice(event.data.object) };
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { id: event.id, type: event.type, subscription: toSubscription(event.data.object) };
    default:
      throw new UnhandledWebhookEventError(event.type);
  }
}

function toInvoice(invoice: Stripe.Invoice): GatewayInvoice {
  const subscription = invoice.parent?.subscription_details?.subscription ?? null;
  return {
    id: invoice.id,
    customerId: invoice.customer ? idOf(invoice.customer) : '',
    subscriptionId: subscription ? idOf(subscription) : null,
    status: invoiceStatusOf(invoice.status),
    amountDueCents: invoice.amount_due,
    amountPaidCents: invoice.amount_paid,
    currency: 'usd',
    periodStart: dateOf(invoice.period_start),
    periodEnd: dateOf(invoice.period_end),
    failureMessage: failureMessageOf(invoice),
    createdAt: dateOf(invoice.created),
  };
}

/**
 * Since API version 2025-03-31 an invoice no longer names its charge: the decline reason is on
 * the PaymentIntent of `invoice.payments`, which a webhook payload does not include and a
 * synchronous `parseWebhook` cannot fetch. So a failed attempt gets a plain sentence; the
 * card's own message reaches the user when they pay again (`payOpenInvoice` → CardError).
 */
export const stripeInvoiceFailedMessage = 'The payment of this invoice failed.';

function failureMessageOf(invoice: Stripe.Invoice): string | null {
  if (invoice.last_finalization_error?.message) return invoice.last_finalization_error.message;
  const failedAttempt = invoice.status === 'open' && invoice.attempt_count > 0;
  return failedAttempt ? stripeInvoiceFailedMessage : null;
}

function cardSummaryOf(method: Stripe.PaymentMethod): CardSummary {
  const card = method.card;
  if (!card) throw new CardError('This payment method is not a card.', 'not_a_card');
  return { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

const subscriptionStatuses: readonly GatewaySubscriptionStatus[] = [
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
];

function statusOf(status: Stripe.Subscription.Status): GatewaySubscriptionStatus {
  const known = subscriptionStatuses.find((candidate) => candidate === status);
  // 'paused' (a trial that ended without a card, when so configured) collects nothing, and
  // so does any status a later API version adds.
  return known ?? 'unpaid';
}

const invoiceStatuses: readonly GatewayInvoice['status'][] = [
  'draft',
  'open',
  'paid',
  'void',
  'uncollectible',
];

function invoiceStatusOf(status: Stripe.Invoice.Status | null): GatewayInvoice['status'] {
  return invoiceStatuses.find((candidate) => candidate === status) ?? 'draft';
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

function dateOf(unixSeconds: number): Date {
  return new Date(unixSeconds * 1000);
}

function dateOrNull(unixSeconds: number | null): Date | null {
  return unixSeconds === null ? null : dateOf(unixSeconds);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
