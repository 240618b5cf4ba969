import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import {
  incorrectNumber,
  testCardById,
  testCardByNumber,
  type CardOutcome,
  type CardRefusal,
  type TestCard,
} from './stripe-test-cards.js';

/**
 * The objects and rules behind the local Stripe-shaped server (stripe-server.ts): customers,
 * card payment methods, prices, coupons, subscriptions with trials and monthly periods,
 * proration, cancel at period end, invoices and the events Stripe raises for them.
 *
 * Every object is typed as a `Pick` of the `stripe` package's own type (generated from
 * Stripe's OpenAPI description, github.com/stripe/openapi), so a field that drifts from the
 * published shape fails to compile. Only the fields the adapter reads, and those that make an
 * answer recognisable, are kept.
 */

export type FakePrice = Pick<
  Stripe.Price,
  | 'id'
  | 'object'
  | 'active'
  | 'currency'
  | 'unit_amount'
  | 'type'
  | 'livemode'
  | 'created'
  | 'product'
  | 'metadata'
> & { recurring: Pick<Stripe.Price.Recurring, 'interval' | 'interval_count'> };

export type FakeCustomer = Pick<
  Stripe.Customer,
  'id' | 'object' | 'email' | 'name' | 'metadata' | 'created' | 'balance' | 'livemode'
> & { invoice_settings: Pick<Stripe.Customer.InvoiceSettings, 'default_payment_method'> };

export type FakePaymentMethod = Pick<
  Stripe.PaymentMethod,
  'id' | 'object' | 'type' | 'customer' | 'created' | 'livemode' | 'metadata'
> & {
  card: Pick<Stripe.PaymentMethod.Card, 'brand' | 'last4' | 'exp_month' | 'exp_year' | 'funding'>;
};

export type FakeCoupon = Pick<
  Stripe.Coupon,
  | 'id'
  | 'object'
  | 'amount_off'
  | 'percent_off'
  | 'currency'
  | 'duration'
  | 'duration_in_months'
  | 'valid'
  | 'created'
  | 'livemode'
  | 'metadata'
  | 'name'
  | 'times_redeemed'
>;

export type FakeSubscriptionItem = Pick<
  Stripe.SubscriptionItem,
  | 'id'
  | 'object'
  | 'created'
  | 'current_period_start'
  | 'current_period_end'
  | 'subscription'
  | 'quantity'
  | 'metadata'
> & { price: FakePrice };

export type FakeSubscription = Pick<
  Stripe.Subscription,
  | 'id'
  | 'object'
  | 'customer'
  | 'status'
  | 'trial_start'
  | 'trial_end'
  | 'cancel_at_period_end'
  | 'cancel_at'
  | 'canceled_at'
  | 'ended_at'
  | 'created'
  | 'start_date'
  | 'billing_cycle_anchor'
  | 'currency'
  | 'collection_method'
  | 'latest_invoice'
  | 'default_payment_method'
  | 'livemode'
  | 'metadata'
> & { items: Stripe.ApiList<FakeSubscriptionItem>; discounts: string[] };

export type FakeInvoice = Pick<
  Stripe.Invoice,
  | 'id'
  | 'object'
  | 'customer'
  | 'status'
  | 'amount_due'
  | 'amount_paid'
  | 'amount_remaining'
  | 'attempt_count'
  | 'attempted'
  | 'billing_reason'
  | 'collection_method'
  | 'created'
  | 'currency'
  | 'period_start'
  | 'period_end'
  | 'subtotal'
  | 'total'
  | 'starting_balance'
  | 'ending_balance'
  | 'livemode'
  | 'next_payment_attempt'
  | 'last_finalization_error'
> & {
  parent: Pick<Stripe.Invoice.Parent, 'type' | 'quote_details'> & {
    subscription_details: Pick<
      Stripe.Invoice.Parent.SubscriptionDetails,
      'subscription' | 'metadata'
    >;
  };
  discounts: string[];
};

export type FakeEventObject = FakeInvoice | FakeSubscription;

export type FakeEvent = Pick<
  Stripe.Event,
  'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks' | 'request'
> & {
  type: Stripe.Event['type'];
  data: { object: FakeEventObject; previous_attributes?: Record<string, unknown> };
};

/** A refusal, answered as Stripe's error object with its HTTP status. */
export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly error: Pick<
      Stripe.StripeRawError,
      'type' | 'code' | 'decline_code' | 'message' | 'param' | 'doc_url'
    >,
  ) {
    super(error.message);
  }

  static invalid(message: string, param?: string, code?: string): FakeStripeError {
    return new FakeStripeError(400, {
      type: 'invalid_request_error',
      message,
      ...(param ? { param } : {}),
      ...(code ? { code } : {}),
    });
  }

  static missing(kind: string, id: string, param = 'id'): FakeStripeError {
    return new FakeStripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${id}'`,
      param,
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    });
  }

  static card(outcome: CardRefusal): FakeStripeError {
    return new FakeStripeError(402, {
      type: 'card_error',
      code: outcome.code,
      message: outcome.message,
      ...(outcome.declineCode ? { decline_code: outcome.declineCode } : {}),
      ...(outcome.param ? { param: outcome.param } : {}),
      doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replace(/_/g, '-')}`,
    });
  }
}

/** What a request asked for, decoded from Stripe's bracketed form encoding. */
export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

export interface FakeBillingOptions {
  prices: { id: string; unitAmount: number }[];
  now: () => number;
  /** Raises an event; the server signs and delivers it. */
  emit: (
    type: Stripe.Event['type'],
    object: FakeEventObject,
    previous?: Record<string, unknown>,
  ) => void;
}

const day = 86_400;

export class FakeBilling {
  readonly prices = new Map<string, FakePrice>();
  readonly customers = new Map<string, FakeCustomer>();
  readonly paymentMethods = new Map<string, FakePaymentMethod>();
  readonly coupons = new Map<string, FakeCoupon>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly invoices = new Map<string, FakeInvoice>();
  /** The test card behind each payment method (Stripe keeps the card; we keep its behaviour). */
  private readonly cards = new Map<string, TestCard>();
  /** Proration amounts waiting for the subscription's next invoice (create_prorations). */
  private readonly pendingProrations = new Map<string, number>();

  constructor(private readonly options: FakeBillingOptions) {
    for (const price of options.prices) {
      this.prices.set(price.id, {
        id: price.id,
        object: 'price',
        active: true,
        currency: 'usd',
        unit_amount: price.unitAmount,
        type: 'recurring',
        recurring: { interval: 'month', interval_count: 1 },
        livemode: false,
        created: options.now(),
        product: `prod_${price.id}`,
        metadata: {},
      });
    }
  }

  // Customers -------------------------------------------------------------------------------

  createCustomer(form: FormObject): FakeCustomer {
    const customer: FakeCustomer = {
      id: newId('cus'),
      object: 'customer',
      email: text(form.email),
      name: text(form.name),
      metadata: metadataOf(form.metadata),
      created: this.options.now(),
      balance: 0,
      livemode: false,
      invoice_settings: { default_payment_method: null },
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  customer(id: string, param = 'id'): FakeCustomer {
    const customer = this.customers.get(id);
    if (!customer) throw FakeStripeError.missing('customer', id, param);
    return customer;
  }

  updateCustomer(id: string, form: FormObject): FakeCustomer {
    const customer = this.customer(id);
    if (typeof form.email === 'string') customer.email = form.email;
    if (typeof form.name === 'string') customer.name = form.name;
    const settings = form.invoice_settings;
    if (typeof settings === 'object' && typeof settings.default_payment_method === 'string') {
      const methodId = settings.default_payment_method;
      const method = this.paymentMethods.get(methodId);
      if (!method || method.customer !== id) {
        throw FakeStripeError.invalid(
          `No such PaymentMethod: '${methodId}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account.`,
          'invoice_settings[default_payment_method]',
          'resource_missing',
        );
      }
      customer.invoice_settings.default_payment_method = methodId;
    }
    return customer;
  }

  // Payment methods -------------------------------------------------------------------------

  /** What Elements does in the browser: the card's details become a PaymentMethod. */
  createPaymentMethod(form: FormObject): FakePaymentMethod {
    if (form.type !== 'card')
      throw FakeStripeError.invalid('Only card payment methods are supported here', 'type');
    const card = typeof form.card === 'object' ? form.card : {};
    let testCard: TestCard | null;
    if (typeof card.token === 'string') {
      testCard = testCardById(card.token);
      if (!testCard) throw FakeStripeError.missing('token', card.token, 'card[token]');
    } else {
      testCard = testCardByNumber(text(card.number) ?? '');
      if (!testCard) throw FakeStripeError.card(incorrectNumber);
    }
    return this.newPaymentMethod(
      testCard,
      Number(text(card.exp_month) ?? 12),
      Number(text(card.exp_year) ?? 2034),
    );
  }

  paymentMethod(id: string): FakePaymentMethod {
    const method = this.paymentMethods.get(id);
    if (!method) throw FakeStripeError.missing('PaymentMethod', id, 'payment_method');
    return method;
  }

  /** Stripe checks the card here: a declined card or a wrong CVC is refused (402). */
  attachPaymentMethod(id: string, form: FormObject): FakePaymentMethod {
    const customerId = text(form.customer);
    if (!customerId) throw FakeStripeError.invalid('Missing required param: customer.', 'customer');
    this.customer(customerId, 'customer');
    // A published test id (pm_card_visa) stands for a fresh PaymentMethod of that card.
    const published = testCardById(id);
    const method = published ? this.newPaymentMethod(published, 12, 2034) : this.paymentMethod(id);
    if (method.customer && method.customer !== customerId) {
      throw FakeStripeError.invalid(
        'The payment method you provided has already been attached to a customer.',
        'payment_method',
      );
    }
    const outcome = this.cardOf(method.id).onAttach;
    if (!outcome.ok) throw FakeStripeError.card(outcome);
    method.customer = customerId;
    return method;
  }

  private newPaymentMethod(card: TestCard, expMonth: number, expYear: number): FakePaymentMethod {
    const method: FakePaymentMethod = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer: null,
      created: this.options.now(),
      livemode: false,
      metadata: {},
      card: {
        brand: card.brand,
        last4: card.number.slice(-4),
        exp_month: expMonth,
        exp_year: expYear,
        funding: 'credit',
      },
    };
    this.paymentMethods.set(method.id, method);
    this.cards.set(method.id, card);
    return method;
  }

  private cardOf(paymentMethodId: string): TestCard {
    const card = this.cards.get(paymentMethodId);
    if (!card) throw new Error(`No test card behind ${paymentMethodId}`);
    return card;
  }

  // Coupons ---------------------------------------------------------------------------------

  createCoupon(form: FormObject): FakeCoupon {
    const id = text(form.id) ?? newId('co');
    if (this.coupons.has(id)) {
      throw new FakeStripeError(400, {
        type: 'invalid_request_error',
        code: 'resource_already_exists',
        message: 'Coupon already exists.',
        param: 'id',
      });
    }
    const amountOff = text(form.amount_off);
    const percentOff = text(form.percent_off);
    if ((amountOff === null) === (percentOff === null)) {
      throw FakeStripeError.invalid(
        'You must pass exactly one of amount_off or percent_off.',
        'amount_off',
      );
    }
    if (amountOff !== null && !text(form.currency)) {
      throw FakeStripeError.invalid('You must pass currency when passing amount_off.', 'currency');
    }
    const duration = text(form.duration) ?? 'once';
    if (duration !== 'once' && duration !== 'forever' && duration !== 'repeating') {
      throw FakeStripeError.invalid('Invalid duration', 'duration');
    }
    const coupon: FakeCoupon = {
      id,
      object: 'coupon',
      amount_off: amountOff === null ? null : Number(amountOff),
      percent_off: percentOff === null ? null : Number(percentOff),
      currency: text(form.currency),
      duration,
      duration_in_months: null,
      valid: true,
      created: this.options.now(),
      livemode: false,
      metadata: metadataOf(form.metadata),
      name: text(form.name),
      times_redeemed: 0,
    };
    this.coupons.set(id, coupon);
    return coupon;
  }

  coupon(id: string): FakeCoupon {
    const coupon = this.coupons.get(id);
    if (!coupon) throw FakeStripeError.missing('coupon', id);
    return coupon;
  }

  // Subscriptions ---------------------------------------------------------------------------

  createSubscription(form: FormObject): FakeSubscription {
    const customerId = text(form.customer);
    if (!customerId) throw FakeStripeError.invalid('Missing required param: customer.', 'customer');
    const customer = this.customer(customerId, 'customer');
    const items = listOf(form.items);
    const priceId = typeof items[0] === 'object' ? text(items[0].price) : null;
    if (items.length !== 1 || !priceId)
      throw FakeStripeError.invalid('Exactly one item with a price is supported here', 'items');
    const price = this.price(priceId, 'items[0][price]');
    const coupons = listOf(form.discounts).map((discount, i) => {
      const couponId = typeof discount === 'object' ? text(discount.coupon) : null;
      if (!couponId)
        throw FakeStripeError.invalid('A discount needs a coupon', `discounts[${i}][coupon]`);
      const coupon = this.coupons.get(couponId);
      if (!coupon) throw FakeStripeError.missing('coupon', couponId, `discounts[${i}][coupon]`);
      return coupon;
    });
    const trialDays = Number(text(form.trial_period_days) ?? 0);
    const behavior = text(form.payment_behavior) ?? 'allow_incomplete';
    const now = this.options.now();
    const trialEnd = trialDays > 0 ? now + trialDays * day : null;
    const subscriptionId = newId('sub');
    const periodEnd = trialEnd ?? addMonth(now);
    const subscription: FakeSubscription = {
      id: subscriptionId,
      object: 'subscription',
      customer: customer.id,
      status: trialEnd ? 'trialing' : 'active',
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: now,
      start_date: now,
      billing_cycle_anchor: periodEnd,
      currency: 'usd',
      collection_method: 'charge_automatically',
      latest_invoice: null,
      default_payment_method: null,
      livemode: false,
      metadata: metadataOf(form.metadata),
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            created: now,
            current_period_start: now,
            current_period_end: periodEnd,
            subscription: subscriptionId,
            quantity: 1,
            metadata: {},
            price,
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
      },
      discounts: coupons.map((coupon) => coupon.id),
    };
    // The first invoice: $0 during a trial, the price less the discount otherwise.
    const amount = trialEnd ? 0 : this.discounted(subscription, price.unit_amount ?? 0);
    const invoice = this.newInvoice(subscription, amount, 'subscription_create', now, periodEnd);
    const charge = this.collect(invoice);
    if (!charge.ok) {
      if (behavior === 'error_if_incomplete') {
        this.invoices.delete(invoice.id);
        throw FakeStripeError.card(charge);
      }
      subscription.status = 'incomplete';
    }
    for (const coupon of coupons) coupon.times_redeemed += 1;
    this.subscriptions.set(subscription.id, subscription);
    this.raiseInvoiceOutcome(invoice, charge);
    return subscription;
  }

  subscription(id: string): FakeSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw FakeStripeError.missing('subscription', id);
    return subscription;
  }

  updateSubscription(id: string, form: FormObject): FakeSubscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled') {
      throw FakeStripeError.invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    const previous: Record<string, unknown> = {};
    const cancel = text(form.cancel_at_period_end);
    if (cancel !== null) {
      const wanted = cancel === 'true';
      if (wanted !== subscription.cancel_at_period_end) {
        previous.cancel_at_period_end = subscription.cancel_at_period_end;
        previous.cancel_at = subscription.cancel_at;
        previous.canceled_at = subscription.canceled_at;
        const item = firstItem(subscription);
        subscription.cancel_at_period_end = wanted;
        subscription.cancel_at = wanted ? item.current_period_end : null;
        subscription.canceled_at = wanted ? this.options.now() : null;
      }
    }
    const items = listOf(form.items);
    if (items.length > 0) this.changePrice(subscription, items, form, previous);
    if (Object.keys(previous).length > 0) {
      this.options.emit('customer.subscription.updated', snapshot(subscription), previous);
    }
    return subscription;
  }

  private changePrice(
    subscription: FakeSubscription,
    items: FormValue[],
    form: FormObject,
    previous: Record<string, unknown>,
  ): void {
    const change = items[0];
    const item = firstItem(subscription);
    if (items.length !== 1 || typeof change !== 'object' || text(change.id) !== item.id) {
      throw FakeStripeError.invalid('Change the existing item by its id', 'items[0][id]');
    }
    const newPrice = this.price(text(change.price) ?? '', 'items[0][price]');
    if (newPrice.id === item.price.id) return;
    const oldPrice = item.price;
    const proration = text(form.proration_behavior) ?? 'create_prorations';
    const now = this.options.now();
    // The unused part of the period: credit for the old price, charge for the new one.
    const share =
      (item.current_period_end - now) / (item.current_period_end - item.current_period_start);
    const net =
      subscription.status === 'trialing'
        ? 0
        : Math.round(share * ((newPrice.unit_amount ?? 0) - (oldPrice.unit_amount ?? 0)));
    previous.items = { ...subscription.items, data: [{ ...item }] };
    item.price = newPrice;
    if (net === 0 || proration === 'none') return;
    if (proration === 'create_prorations') {
      this.pendingProrations.set(
        subscription.id,
        (this.pendingProrations.get(subscription.id) ?? 0) + net,
      );
      return;
    }
    const customer = this.customer(idOf(subscription.customer));
    if (net < 0) {
      // A downgrade's credit goes to the customer's balance, taken off the next invoice.
      customer.balance += net;
      return;
    }
    const invoice = this.newInvoice(
      subscription,
      net,
      'subscription_update',
      now,
      item.current_period_end,
    );
    const charge = this.collect(invoice);
    if (!charge.ok && text(form.payment_behavior) === 'error_if_incomplete') {
      this.invoices.delete(invoice.id);
      item.price = oldPrice;
      throw FakeStripeError.card(charge);
    }
    if (!charge.ok) subscription.status = 'past_due';
    this.raiseInvoiceOutcome(invoice, charge);
  }

  // Invoices --------------------------------------------------------------------------------

  invoice(id: string): FakeInvoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw FakeStripeError.missing('invoice', id);
    return invoice;
  }

  listInvoices(query: FormObject): FakeInvoice[] {
    const customer = text(query.customer);
    const subscription = text(query.subscription);
    const status = text(query.status);
    const limit = Number(text(query.limit) ?? 10);
    return [...this.invoices.values()]
      .filter((invoice) => customer === null || invoice.customer === customer)
      .filter(
        (invoice) =>
          subscription === null ||
          invoice.parent.subscription_details.subscription === subscription,
      )
      .filter((invoice) => status === null || invoice.status === status)
      .sort((a, b) => b.created - a.created || b.id.localeCompare(a.id))
      .slice(0, limit);
  }

  /** Pays an open invoice with the customer's default card (a failed renewal, retried). */
  payInvoice(id: string, form: FormObject): FakeInvoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open')
      throw FakeStripeError.invalid('Invoice is already paid', undefined, 'invoice_not_open');
    const charge = this.collect(invoice, text(form.payment_method));
    this.raiseInvoiceOutcome(invoice, charge);
    if (!charge.ok) throw FakeStripeError.card(charge);
    return invoice;
  }

  // The clock -------------------------------------------------------------------------------

  /** The next moment something happens on its own: a period (or a trial) ends. */
  nextDueAt(): number | null {
    let next: number | null = null;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status === 'canceled' || subscription.status === 'incomplete') continue;
      const end = firstItem(subscription).current_period_end;
      if (next === null || end < next) next = end;
    }
    return next;
  }

  /** Renews or ends every subscription whose period ended by `now`. */
  runDue(now: number): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status === 'canceled' || subscription.status === 'incomplete') continue;
      const item = firstItem(subscription);
      if (item.current_period_end > now) continue;
      if (subscription.cancel_at_period_end) this.end(subscription, item.current_period_end);
      else this.renew(subscription, item);
    }
  }

  private end(subscription: FakeSubscription, at: number): void {
    subscription.status = 'canceled';
    subscription.ended_at = at;
    this.options.emit('customer.subscription.deleted', snapshot(subscription));
  }

  private renew(subscription: FakeSubscription, item: FakeSubscriptionItem): void {
    const previous: Record<string, unknown> = {
      items: { ...subscription.items, data: [{ ...item }] },
      status: subscription.status,
    };
    const start = item.current_period_end;
    item.current_period_start = start;
    item.current_period_end = addMonth(start);
    const pending = this.pendingProrations.get(subscription.id) ?? 0;
    this.pendingProrations.delete(subscription.id);
    const amount = this.discounted(subscription, item.price.unit_amount ?? 0) + pending;
    const invoice = this.newInvoice(
      subscription,
      amount,
      'subscription_cycle',
      start,
      item.current_period_end,
    );
    const charge = this.collect(invoice);
    subscription.status = charge.ok ? 'active' : 'past_due';
    this.options.emit('customer.subscription.updated', snapshot(subscription), previous);
    this.raiseInvoiceOutcome(invoice, charge);
  }

  // Charging --------------------------------------------------------------------------------

  private newInvoice(
    subscription: FakeSubscription,
    amount: number,
    reason: Stripe.Invoice.BillingReason,
    periodStart: number,
    periodEnd: number,
  ): FakeInvoice {
    const customer = this.customer(idOf(subscription.customer));
    // The customer's credit balance (negative) is applied first.
    const fromBalance = Math.max(customer.balance, -Math.max(amount, 0));
    const startingBalance = customer.balance;
    customer.balance -= fromBalance;
    const due = Math.max(amount + fromBalance, 0);
    const invoice: FakeInvoice = {
      id: newId('in'),
      object: 'invoice',
      customer: customer.id,
      status: 'open',
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      attempt_count: 0,
      attempted: false,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: this.options.now(),
      currency: 'usd',
      period_start: periodStart,
      period_end: periodEnd,
      subtotal: amount,
      total: amount,
      starting_balance: startingBalance,
      ending_balance: customer.balance,
      livemode: false,
      next_payment_attempt: null,
      last_finalization_error: null,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: {} },
      },
      discounts: [...subscription.discounts],
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /** Charges the invoice's amount to a card (the given one or the customer's default). */
  private collect(invoice: FakeInvoice, paymentMethodId: string | null = null): CardOutcome {
    if (invoice.amount_due === 0) {
      invoice.status = 'paid';
      return { ok: true };
    }
    invoice.attempted = true;
    invoice.attempt_count += 1;
    const customer = this.customer(idOf(invoice.customer ?? ''));
    const methodId =
      paymentMethodId ?? (customer.invoice_settings.default_payment_method as string | null);
    const outcome: CardOutcome = methodId
      ? this.cardOf(methodId).onCharge
      : {
          ok: false,
          code: 'invoice_no_customer_line_items',
          declineCode: null,
          message: 'This customer has no attached payment source or default payment method.',
          param: null,
        };
    if (outcome.ok) {
      invoice.status = 'paid';
      invoice.amount_paid = invoice.amount_due;
      invoice.amount_remaining = 0;
    }
    return outcome;
  }

  private raiseInvoiceOutcome(invoice: FakeInvoice, charge: CardOutcome): void {
    if (charge.ok) {
      this.options.emit('invoice.paid', snapshot(invoice));
      const subscription = this.subscriptions.get(
        invoice.parent.subscription_details.subscription as string,
      );
      if (
        subscription &&
        (subscription.status === 'past_due' || subscription.status === 'incomplete')
      ) {
        const previous = { status: subscription.status };
        subscription.status = 'active';
        this.options.emit('customer.subscription.updated', snapshot(subscription), previous);
      }
    } else {
      this.options.emit('invoice.payment_failed', snapshot(invoice));
    }
  }

  private discounted(subscription: FakeSubscription, amount: number): number {
    let total = amount;
    for (const couponId of subscription.discounts) {
      const coupon = this.coupon(couponId);
      if (coupon.percent_off !== null) total -= Math.round((total * coupon.percent_off) / 100);
      if (coupon.amount_off !== null) total -= coupon.amount_off;
    }
    return Math.max(total, 0);
  }

  private price(id: string, param: string): FakePrice {
    const price = this.prices.get(id);
    if (!price) throw FakeStripeError.missing('price', id, param);
    return price;
  }
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

function firstItem(subscription: FakeSubscription): FakeSubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no item`);
  return item;
}

/** The same day of the next month (the 31st becomes the month's last day), as Stripe bills. */
export function addMonth(unixSeconds: number): number {
  const date = new Date(unixSeconds * 1000);
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(date.getUTCMonth() + 1);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

function snapshot<T>(object: T): T {
  return structuredClone(object);
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

function text(value: FormValue | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** `items[0][price]` arrives as `{ items: { 0: { price } } }`; this gives the array back. */
export function listOf(value: FormValue | undefined): FormValue[] {
  if (typeof value !== 'object') return [];
  return Object.keys(value)
    .filter((key) => /^\d+$/.test(key))
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => value[key] as FormValue);
}

function metadataOf(value: FormValue | undefined): Record<string, string> {
  if (typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
