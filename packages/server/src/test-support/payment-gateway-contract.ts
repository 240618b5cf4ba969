import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plans, type PaidPlanId } from '@linkaudit/core';
import {
  CardError,
  type GatewayEvent,
  type GatewayInvoice,
  type PaymentGateway,
} from '../modules/billing/payment-gateway.js';
import { testCards } from '../modules/billing/test-cards.js';

/**
 * The behaviour every PaymentGateway adapter must show (issue 22): run by the sandbox gateway's
 * tests against its database, and by the Stripe adapter's tests against the local Stripe-shaped
 * server. Only the harness differs: how time moves, how a card number becomes a token, and how
 * the application hears of events.
 */

/** Moves the provider's time (sandbox: our BillingClock; Stripe: a test clock). */
export interface GatewayTestClock {
  /**
   * Moves time forward by whole days and resolves once everything that fell due (trial ends,
   * renewals, cancellations at period end) was processed and its events were delivered.
   */
  advanceDays(days: number): Promise<void>;
}

export interface GatewayHarness {
  gateway: PaymentGateway;
  clock: GatewayTestClock;
  /** A token for a published test card number, as the card form (sandbox form, Elements) makes it. */
  cardToken(cardNumber: string): Promise<string>;
  /** Every event the application receives (sandbox: onEvent; Stripe: verified webhooks). */
  onEvent(listener: (event: GatewayEvent) => void): void;
  close(): Promise<void>;
}

const dayMs = 24 * 3600 * 1000;

/** A plan's monthly price in cents, as every adapter must charge it. */
export function priceCents(plan: PaidPlanId): number {
  return Math.round(plans[plan].monthlyPriceUsd * 100);
}

function days(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / dayMs;
}

export function describeGatewayContract(
  name: string,
  makeHarness: () => Promise<GatewayHarness>,
): void {
  describe(`PaymentGateway contract: ${name}`, () => {
    let harness: GatewayHarness;
    let gateway: PaymentGateway;
    let events: GatewayEvent[];
    let keyCount = 0;
    const key = (label: string) => `contract-${label}-${Date.now()}-${++keyCount}`;

    beforeEach(async () => {
      harness = await makeHarness();
      gateway = harness.gateway;
      events = [];
      harness.onEvent((event) => events.push(event));
    });
    afterEach(async () => {
      await harness.close();
    });

    async function customerWithCard(cardNumber: string = testCards.succeeds) {
      const customer = await gateway.createCustomer({
        userId: `user-${++keyCount}`,
        email: `payer${keyCount}@example.com`,
        name: 'Pat Payer',
      });
      if (cardNumber) {
        await gateway.attachCard(customer.id, await harness.cardToken(cardNumber), key('card'));
      }
      return customer;
    }

    const eventsOf = <T extends GatewayEvent['type']>(type: T) =>
      events.filter((event): event is Extract<GatewayEvent, { type: T }> => event.type === type);

    it('creates a customer and attaches the card that succeeds', async () => {
      const customer = await gateway.createCustomer({
        userId: 'user-a',
        email: 'a@example.com',
        name: 'A',
      });
      expect(customer.id).toBeTruthy();
      const card = await gateway.attachCard(
        customer.id,
        await harness.cardToken(testCards.succeeds),
        key('attach'),
      );
      expect(card).toMatchObject({ brand: 'visa', last4: '4242' });
      expect(card.expYear).toBeGreaterThanOrEqual(2026);
    });

    it('refuses the declined card and the wrong CVC with CardError and the provider message', async () => {
      const customer = await customerWithCard('');
      const declined = gateway.attachCard(
        customer.id,
        await harness.cardToken(testCards.declined),
        key('declined'),
      );
      await expect(declined).rejects.toBeInstanceOf(CardError);
      await expect(declined).rejects.toMatchObject({ code: 'card_declined' });
      const wrongCvc = gateway.attachCard(
        customer.id,
        await harness.cardToken(testCards.wrongCvc),
        key('cvc'),
      );
      await expect(wrongCvc).rejects.toBeInstanceOf(CardError);
      await expect(wrongCvc).rejects.toMatchObject({ code: 'incorrect_cvc' });
      await expect(wrongCvc).rejects.toThrow(/security code/i);
    });

    it('starts a trial with the period ending at the trial end, then renews into a paid month', async () => {
      const customer = await customerWithCard();
      const subscription = await gateway.createSubscription({
        customerId: customer.id,
        plan: 'Premium',
        trialDays: 7,
        discount: null,
        idempotencyKey: key('sub'),
      });
      expect(subscription).toMatchObject({ plan: 'Premium', status: 'trialing' });
      expect(subscription.cancelAtPeriodEnd).toBe(false);
      expect(subscription.trialEnd?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
      expect(days(subscription.currentPeriodStart, subscription.currentPeriodEnd)).toBeCloseTo(
        7,
        1,
      );

      await harness.clock.advanceDays(8);
      const renewed = await gateway.retrieveSubscription(subscription.id);
      expect(renewed.status).toBe('active');
      expect(renewed.currentPeriodStart.getTime()).toBe(subscription.currentPeriodEnd.getTime());
      const length = days(renewed.currentPeriodStart, renewed.currentPeriodEnd);
      expect(length).toBeGreaterThanOrEqual(28);
      expect(length).toBeLessThanOrEqual(31);
      const paid = eventsOf('invoice.paid').filter((e) => e.invoice.amountPaidCents > 0);
      expect(paid).toHaveLength(1);
      expect(paid[0]?.invoice).toMatchObject({
        subscriptionId: subscription.id,
        customerId: customer.id,
        status: 'paid',
        amountPaidCents: priceCents('Premium'),
      });
    });

    it('charges at once without a trial', async () => {
      const customer = await customerWithCard();
      const subscription = await gateway.createSubscription({
        customerId: customer.id,
        plan: 'Basic',
        trialDays: 0,
        discount: null,
        idempotencyKey: key('sub'),
      });
      expect(subscription.status).toBe('active');
      const invoices = await gateway.listInvoices(customer.id);
      expect(invoices.map((invoice) => [invoice.status, invoice.amountPaidCents])).toEqual([
        ['paid', priceCents('Basic')],
      ]);
    });

    it('applies a fixed discount, a percentage, and 100 % without any card', async () => {
      const paidOf = (invoices: GatewayInvoice[]) =>
        invoices.map((invoice) => invoice.amountPaidCents);
      const fixed = await customerWithCard();
      await gateway.createSubscription({
        customerId: fixed.id,
        plan: 'Basic',
        trialDays: 0,
        discount: { kind: 'fixed', amountOffCents: 500 },
        idempotencyKey: key('fixed'),
      });
      expect(paidOf(await gateway.listInvoices(fixed.id))).toEqual([priceCents('Basic') - 500]);

      const percent = await customerWithCard();
      await gateway.createSubscription({
        customerId: percent.id,
        plan: 'Premium',
        trialDays: 0,
        discount: { kind: 'percent', percentOff: 25 },
        idempotencyKey: key('percent'),
      });
      const premium = priceCents('Premium');
      expect(paidOf(await gateway.listInvoices(percent.id))).toEqual([
        premium - Math.round(premium * 0.25),
      ]);

      const free = await customerWithCard('');
      const subscription = await gateway.createSubscription({
        customerId: free.id,
        plan: 'Enterprise',
        trialDays: 0,
        discount: { kind: 'percent', percentOff: 100 },
        idempotencyKey: key('free'),
      });
      expect(subscription.status).toBe('active');
      await harness.clock.advanceDays(32);
      expect((await gateway.retrieveSubscription(subscription.id)).status).toBe('active');
      expect(eventsOf('invoice.payment_failed')).toHaveLength(0);
      for (const invoice of await gateway.listInvoices(free.id)) {
        expect(invoice.amountDueCents).toBe(0);
      }
    });

    it('changes plan with proration: an upgrade mid-period charges part of the difference once', async () => {
      const customer = await customerWithCard();
      const subscription = await gateway.createSubscription({
        customerId: customer.id,
        plan: 'Basic',
        trialDays: 0,
        discount: null,
        idempotencyKey: key('sub'),
      });
      await harness.clock.advanceDays(10);
      const changeKey = key('change');
      const changed = await gateway.changePlan(subscription.id, 'Premium', changeKey);
      expect(changed.plan).toBe('Premium');
      expect(changed.currentPeriodEnd.getTime()).toBe(subscription.currentPeriodEnd.getTime());
      const again = await gateway.changePlan(subscription.id, 'Premium', changeKey);
      expect(again.plan).toBe('Premium');

      const invoices = await gateway.listInvoices(customer.id);
      const proration = invoices.filter(
        (invoice) => invoice.amountPaidCents !== priceCents('Basic'),
      );
      expect(proration).toHaveLength(1);
      const difference = priceCents('Premium') - priceCents('Basic');
      expect(proration[0]?.status).toBe('paid');
      expect(proration[0]?.amountPaidCents).toBeGreaterThan(0);
      expect(proration[0]?.amountPaidCents).toBeLessThan(difference);
    });

    it('cancels at period end, reactivates, and ends the subscription when the period is over', async () => {
      const customer = await customerWithCard();
      const subscription = await gateway.createSubscription({
        customerId: customer.id,
        plan: 'Basic',
        trialDays: 0,
        discount: null,
        idempotencyKey: key('sub'),
      });
      const canceled = await gateway.cancelAtPeriodEnd(subscription.id);
      expect(canceled).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
      expect(canceled.canceledAt).not.toBeNull();
      const reactivated = await gateway.reactivate(subscription.id);
      expect(reactivated).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null });

      await gateway.cancelAtPeriodEnd(subscription.id);
      await harness.clock.advanceDays(32);
      const ended = await gateway.retrieveSubscription(subscription.id);
      expect(ended.status).toBe('canceled');
      expect(ended.endedAt).not.toBeNull();
      expect(eventsOf('customer.subscription.deleted').map((e) => e.subscription.id)).toEqual([
        subscription.id,
      ]);
      const charged = (await gateway.listInvoices(customer.id)).filter(
        (invoice) => invoice.amountPaidCents > 0,
      );
      expect(charged).toHaveLength(1);
    });

    it('fails the renewal with the card that fails later, and pays the open invoice after a card update', async () => {
      const customer = await customerWithCard(testCards.failsAtRenewal);
      const subscription = await gateway.createSubscription({
        customerId: customer.id,
        plan: 'Premium',
        trialDays: 7,
        discount: null,
        idempotencyKey: key('sub'),
      });
      await harness.clock.advanceDays(8);
      const failed = eventsOf('invoice.payment_failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]?.invoice).toMatchObject({
        status: 'open',
        subscriptionId: subscription.id,
        amountDueCents: priceCents('Premium'),
        amountPaidCents: 0,
      });
      expect(failed[0]?.invoice.failureMessage).toBeTruthy();
      expect((await gateway.retrieveSubscription(subscription.id)).status).toBe('past_due');

      await gateway.attachCard(
        customer.id,
        await harness.cardToken(testCards.succeeds),
        key('new-card'),
      );
      const payKey = key('pay');
      const paid = await gateway.payOpenInvoice(subscription.id, payKey);
      expect(paid).toMatchObject({ status: 'paid', amountPaidCents: priceCents('Premium') });
      const retried = await gateway.payOpenInvoice(subscription.id, payKey);
      expect(retried?.id).toBe(paid?.id);
      expect(await gateway.payOpenInvoice(subscription.id, key('pay-again'))).toBeNull();
      expect((await gateway.retrieveSubscription(subscription.id)).status).toBe('active');
      const charged = (await gateway.listInvoices(customer.id)).filter(
        (invoice) => invoice.amountPaidCents > 0,
      );
      expect(charged).toHaveLength(1);
    });

    it('answers a repeated idempotency key with the same result and never charges twice', async () => {
      const customer = await customerWithCard();
      const cardKey = key('card');
      const token = await harness.cardToken(testCards.succeeds);
      const first = await gateway.attachCard(customer.id, token, cardKey);
      expect(await gateway.attachCard(customer.id, token, cardKey)).toEqual(first);

      const subscriptionKey = key('sub');
      const input = {
        customerId: customer.id,
        plan: 'Basic' as const,
        trialDays: 0,
        discount: null,
        idempotencyKey: subscriptionKey,
      };
      const a = await gateway.createSubscription(input);
      const b = await gateway.createSubscription(input);
      expect(b.id).toBe(a.id);
      expect(await gateway.listInvoices(customer.id)).toHaveLength(1);
    });

    it('delivers each event once, and nothing again when time moves on without new work', async () => {
      const customer = await customerWithCard();
      await gateway.createSubscription({
        customerId: customer.id,
        plan: 'Basic',
        trialDays: 2,
        discount: null,
        idempotencyKey: key('sub'),
      });
      await harness.clock.advanceDays(3);
      const afterRenewal = events.length;
      expect(eventsOf('invoice.paid').some((e) => e.invoice.amountPaidCents > 0)).toBe(true);
      const ids = events.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      await harness.clock.advanceDays(1);
      expect(events.length).toBe(afterRenewal);
    });
  });
}
