import type { PaidPlanId } from '@linkaudit/core';

/**
 * What LinkAudit needs from a payment provider (DESIGN §2 payments). Two adapters implement it:
 * the sandbox gateway (embedded default, offline, state in our database, renewals on a clock)
 * and the Stripe adapter (the official `stripe` package). The billing service only ever talks to
 * this interface; both adapters pass the same contract tests.
 *
 * Amounts are in US cents and computed by the gateway from the plan's price (core `plans`),
 * never taken from a request. Every call that can charge takes an idempotency key, so a retried
 * request never charges twice.
 */
export interface PaymentGateway {
  readonly kind: 'sandbox' | 'stripe';

  createCustomer(input: { userId: string; email: string; name: string }): Promise<GatewayCustomer>;

  /**
   * Puts a card (a token from the card form) on the customer as its default payment method.
   * Refused cards throw `CardError` with the provider's message.
   */
  attachCard(customerId: string, cardToken: string, idempotencyKey: string): Promise<CardSummary>;

  /** Starts a subscription on `plan` with `trialDays` free days (0: charged at once). */
  createSubscription(input: {
    customerId: string;
    plan: PaidPlanId;
    trialDays: number;
    /** A discount the gateway applies to its invoices (voucher types 1 and 2). */
    discount: Discount | null;
    idempotencyKey: string;
  }): Promise<GatewaySubscription>;

  /** Moves to another plan at once, prorating the rest of the period. */
  changePlan(
    subscriptionId: string,
    plan: PaidPlanId,
    idempotencyKey: string,
  ): Promise<GatewaySubscription>;

  /** Keeps the plan until the period ends, then ends the subscription. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<GatewaySubscription>;

  /** Undoes `cancelAtPeriodEnd` before the period has ended. */
  reactivate(subscriptionId: string): Promise<GatewaySubscription>;

  retrieveSubscription(subscriptionId: string): Promise<GatewaySubscription>;

  /** Charges the subscription's open (failed) invoice again with the current default card. */
  payOpenInvoice(subscriptionId: string, idempotencyKey: string): Promise<GatewayInvoice | null>;

  listInvoices(customerId: string): Promise<GatewayInvoice[]>;

  /**
   * Reads a provider notification (Stripe: a webhook body and its `Stripe-Signature` header).
   * Throws `WebhookSignatureError` when the signature does not verify or is too old.
   * The sandbox gateway delivers its events through `onEvent` instead.
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): GatewayEvent;

  /** Subscribes to events raised inside the process (the sandbox's renewals). */
  onEvent(listener: (event: GatewayEvent) => Promise<void>): void;
}

export interface GatewayCustomer {
  id: string;
}

export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type Discount =
  { kind: 'fixed'; amountOffCents: number } | { kind: 'percent'; percentOff: number };

export type GatewaySubscriptionStatus =
  'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired';

export interface GatewaySubscription {
  id: string;
  customerId: string;
  plan: PaidPlanId;
  status: GatewaySubscriptionStatus;
  trialEnd: Date | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** Set when the subscription has ended (status canceled). */
  endedAt: Date | null;
}

export interface GatewayInvoice {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  amountDueCents: number;
  amountPaidCents: number;
  currency: 'usd';
  periodStart: Date;
  periodEnd: Date;
  /** The provider's reason when the last payment attempt failed. */
  failureMessage: string | null;
  createdAt: Date;
}

/** The provider notifications the billing service acts on (issue 22). */
export type GatewayEvent =
  | { id: string; type: 'invoice.paid'; invoice: GatewayInvoice }
  | { id: string; type: 'invoice.payment_failed'; invoice: GatewayInvoice }
  | { id: string; type: 'customer.subscription.updated'; subscription: GatewaySubscription }
  | { id: string; type: 'customer.subscription.deleted'; subscription: GatewaySubscription };

/** A card the provider refused; `message` is the provider's text, shown to the user (SPEC §8). */
export class CardError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
