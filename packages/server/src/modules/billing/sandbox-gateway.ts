import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { PaidPlanId } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toDate, toOptionalDate, toBoolean } from '../../db/values.js';
import type { BillingClock } from './billing-clock.js';
import { addMonth, discountedCents } from './money.js';
import {
  CardError,
  WebhookSignatureError,
  type CardSummary,
  type Discount,
  type GatewayCustomer,
  type GatewayEvent,
  type GatewayInvoice,
  type GatewaySubscription,
  type GatewaySubscriptionStatus,
  type PaymentGateway,
} from './payment-gateway.js';
import * as repo from './sandbox.repository.js';
import { behaviourOf, cardMessages, type TestCardBehaviour } from './test-cards.js';

/** What the sandbox card form sends (core sandboxCardSchema, already parsed). */
export interface SandboxCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

type Listener = (event: GatewayEvent) => Promise<void>;
type Charge = { ok: true } | { ok: false; code: string; message: string };

/** Subscriptions looked at per renewal round. */
const batchSize = 100;

/**
 * The embedded default payment provider: works offline, keeps what a provider would keep in our
 * own database (sandbox_* tables), and behaves like one for the published test cards. Time is the
 * BillingClock's; renewals happen when `runDue` is called (the scheduler role, each tick), each
 * exactly once however many schedulers run, and raise events through an outbox that whichever
 * process claims an event delivers.
 */
export class SandboxGateway implements PaymentGateway {
  readonly kind = 'sandbox';
  readonly #listeners: Listener[] = [];
  /** Calls with the same idempotency key in this process wait for each other. */
  readonly #inFlight = new Map<string, Promise<unknown>>();
  #eventCounter = 0;

  constructor(
    private readonly db: Kysely<Database>,
    readonly clock: BillingClock,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The sandbox card form's tokenisation: keeps brand, last 4 digits and behaviour only. */
  async createCardToken(card: SandboxCard): Promise<{ id: string; brand: string; last4: string }> {
    if (!luhnValid(card.number))
      throw new CardError('Your card number is incorrect.', 'incorrect_number');
    const now = await this.clock.now();
    const expiry = Date.UTC(card.expYear, card.expMonth, 1);
    if (expiry <= now.getTime()) throw new CardError('Your card has expired.', 'expired_card');
    const token = {
      token: newId('tok'),
      brand: brandOf(card.number),
      last4: card.number.slice(-4),
      exp_month: card.expMonth,
      exp_year: card.expYear,
      behaviour: behaviourOf(card.number),
      created_at: now,
    };
    await repo.insertCard(this.db, token);
    return { id: token.token, brand: token.brand, last4: token.last4 };
  }

  async createCustomer(input: {
    userId: string;
    email: string;
    name: string;
  }): Promise<GatewayCustomer> {
    const id = newId('cus');
    await repo.insertCustomer(this.db, {
      id,
      user_id: input.userId,
      email: input.email,
      name: input.name,
      card_token: null,
      created_at: await this.clock.now(),
    });
    return { id };
  }

  attachCard(customerId: string, cardToken: string, idempotencyKey: string): Promise<CardSummary> {
    return this.#once(`attach:${idempotencyKey}`, async () => {
      await this.#customer(customerId);
      const card = await repo.findCard(this.db, cardToken);
      if (!card) throw new CardError('No such token.', 'resource_missing');
      const behaviour = card.behaviour as TestCardBehaviour;
      if (behaviour === 'declined') throw new CardError(cardMessages.declined, 'card_declined');
      if (behaviour === 'wrongCvc') throw new CardError(cardMessages.incorrectCvc, 'incorrect_cvc');
      await repo.setCustomerCard(this.db, customerId, cardToken);
      const summary: CardSummary = {
        brand: card.brand,
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
      };
      return { result: summary, keep: summary };
    });
  }

  createSubscription(input: {
    customerId: string;
    plan: PaidPlanId;
    trialDays: number;
    discount: Discount | null;
    idempotencyKey: string;
  }): Promise<GatewaySubscription> {
    return this.#once(
      `subscribe:${input.idempotencyKey}`,
      async () => {
        const customer = await this.#customer(input.customerId);
        const now = await this.clock.now();
        const id = newId('sub');
        const trialing = input.trialDays > 0;
        const periodEnd = trialing ? addDays(now, input.trialDays) : addMonth(now);
        const amount = trialing ? 0 : discountedCents(input.plan, input.discount);
        const charge = await this.#charge(customer.card_token, amount);
        if (!charge.ok) throw new CardError(charge.message, charge.code);
        await this.db.transaction().execute(async (trx) => {
          await repo.insertSubscription(trx, {
            id,
            customer_id: customer.id,
            plan: input.plan,
            status: trialing ? 'trialing' : 'active',
            trial_end: trialing ? periodEnd : null,
            current_period_start: now,
            current_period_end: periodEnd,
            cancel_at_period_end: false,
            canceled_at: null,
            ended_at: null,
            discount_json: input.discount ? JSON.stringify(input.discount) : null,
            created_at: now,
          });
          await this.#invoice(trx, {
            customerId: customer.id,
            subscriptionId: id,
            amount,
            paid: true,
            failureMessage: null,
            periodStart: now,
            periodEnd,
            now,
          });
        });
        return { result: await this.retrieveSubscription(id), keep: { id } };
      },
      (kept: { id: string }) => this.retrieveSubscription(kept.id),
    );
  }

  changePlan(
    subscriptionId: string,
    plan: PaidPlanId,
    idempotencyKey: string,
  ): Promise<GatewaySubscription> {
    return this.#once(
      `change:${idempotencyKey}`,
      async () => {
        const row = await this.#subscription(subscriptionId);
        const now = await this.clock.now();
        const discount = discountOf(row.discount_json);
        const from = row.plan as PaidPlanId;
        // Trials cost nothing: the new plan simply starts when the trial ends.
        if (row.status !== 'trialing' && from !== plan) {
          const start = toDate(row.current_period_start).getTime();
          const end = toDate(row.current_period_end).getTime();
          const left = Math.max(0, Math.min(1, (end - now.getTime()) / (end - start)));
          const difference = discountedCents(plan, discount) - discountedCents(from, discount);
          const prorated = Math.round(difference * left);
          await this.#prorate(row, prorated, now);
        }
        await repo.updateSubscription(this.db, subscriptionId, { plan });
        await this.#raiseSubscriptionUpdated(subscriptionId, now);
        return {
          result: await this.retrieveSubscription(subscriptionId),
          keep: { id: subscriptionId },
        };
      },
      (kept: { id: string }) => this.retrieveSubscription(kept.id),
    );
  }

  /** An upgrade is charged now for the rest of the period; a downgrade leaves a credit. */
  async #prorate(row: repo.SandboxSubscriptionRow, cents: number, now: Date): Promise<void> {
    if (cents < 0) {
      await repo.addCustomerBalance(this.db, row.customer_id, -cents);
      return;
    }
    if (cents === 0) return;
    const customer = await this.#customer(row.customer_id);
    const charge = await this.#charge(customer.card_token, cents);
    if (!charge.ok) throw new CardError(charge.message, charge.code);
    await this.db.transaction().execute((trx) =>
      this.#invoice(trx, {
        customerId: row.customer_id,
        subscriptionId: row.id,
        amount: cents,
        paid: true,
        failureMessage: null,
        periodStart: now,
        periodEnd: toDate(row.current_period_end),
        now,
      }),
    );
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<GatewaySubscription> {
    const row = await this.#subscription(subscriptionId);
    const now = await this.clock.now();
    if (row.status !== 'canceled' && !toBoolean(row.cancel_at_period_end)) {
      await repo.updateSubscription(this.db, subscriptionId, {
        cancel_at_period_end: true,
        canceled_at: now,
      });
      await this.#raiseSubscriptionUpdated(subscriptionId, now);
    }
    return this.retrieveSubscription(subscriptionId);
  }

  async reactivate(subscriptionId: string): Promise<GatewaySubscription> {
    const row = await this.#subscription(subscriptionId);
    if (row.status === 'canceled')
      throw new Error('A canceled subscription cannot be reactivated.');
    if (toBoolean(row.cancel_at_period_end)) {
      await repo.updateSubscription(this.db, subscriptionId, {
        cancel_at_period_end: false,
        canceled_at: null,
      });
      await this.#raiseSubscriptionUpdated(subscriptionId, await this.clock.now());
    }
    return this.retrieveSubscription(subscriptionId);
  }

  async retrieveSubscription(subscriptionId: string): Promise<GatewaySubscription> {
    return toSubscription(await this.#subscription(subscriptionId));
  }

  payOpenInvoice(subscriptionId: string, idempotencyKey: string): Promise<GatewayInvoice | null> {
    return this.#once(
      `pay:${idempotencyKey}`,
      async () => {
        const row = await this.#subscription(subscriptionId);
        const invoice = await repo.openInvoiceOf(this.db, subscriptionId);
        if (!invoice) return { result: null, keep: { id: null } };
        const customer = await this.#customer(row.customer_id);
        const charge = await this.#charge(customer.card_token, invoice.amount_due);
        if (!charge.ok) {
          await repo.updateInvoice(this.db, invoice.id, { failure_message: charge.message });
          throw new CardError(charge.message, charge.code);
        }
        const now = await this.clock.now();
        await this.db.transaction().execute(async (trx) => {
          await repo.updateInvoice(trx, invoice.id, {
            status: 'paid',
            amount_paid: invoice.amount_due,
            failure_message: null,
          });
          if (row.status === 'past_due') {
            await repo.updateSubscription(trx, subscriptionId, { status: 'active' });
          }
          const paid = await repo.findInvoice(trx, invoice.id);
          if (paid) await this.#raise(trx, { type: 'invoice.paid', invoice: toInvoice(paid) }, now);
          const subscription = await repo.findSubscription(trx, subscriptionId);
          if (subscription) {
            await this.#raise(
              trx,
              { type: 'customer.subscription.updated', subscription: toSubscription(subscription) },
              now,
            );
          }
        });
        await this.deliverPending();
        const paid = await repo.findInvoice(this.db, invoice.id);
        return { result: paid ? toInvoice(paid) : null, keep: { id: invoice.id } };
      },
      async (kept: { id: string | null }) => {
        const found = kept.id ? await repo.findInvoice(this.db, kept.id) : undefined;
        return found ? toInvoice(found) : null;
      },
    );
  }

  async listInvoices(customerId: string): Promise<GatewayInvoice[]> {
    return (await repo.listInvoices(this.db, customerId)).map(toInvoice);
  }

  /** The sandbox has no webhooks: its events arrive through onEvent. */
  parseWebhook(): GatewayEvent {
    throw new WebhookSignatureError('The sandbox gateway sends no webhooks.');
  }

  onEvent(listener: (event: GatewayEvent) => Promise<void>): void {
    this.#listeners.push(listener);
  }

  /**
   * Everything that fell due by the billing clock's now: trial ends and renewals (charged),
   * cancellations at period end (ended). Then the events go out. Answers how many periods ended.
   */
  async runDue(): Promise<number> {
    const now = await this.clock.now();
    let handled = 0;
    for (;;) {
      const due = await repo.dueSubscriptions(this.db, now, batchSize);
      let progressed = 0;
      for (const row of due) {
        if (await this.#endPeriod(row, now)) progressed++;
      }
      handled += progressed;
      if (due.length < batchSize && progressed === due.length) break;
      if (progressed === 0) break;
    }
    await this.deliverPending();
    return handled;
  }

  /** Ends one period: the subscription ends (cancelled) or renews with a charge. */
  async #endPeriod(row: repo.SandboxSubscriptionRow, now: Date): Promise<boolean> {
    const periodEnd = toDate(row.current_period_end);
    if (toBoolean(row.cancel_at_period_end)) {
      return this.db.transaction().execute(async (trx) => {
        const claimed = await repo.claimPeriodEnd(trx, row.id, periodEnd, {
          status: 'canceled',
          ended_at: periodEnd,
        });
        if (!claimed) return false;
        await repo.voidOpenInvoices(trx, row.id);
        const ended = await repo.findSubscription(trx, row.id);
        if (ended) {
          await this.#raise(
            trx,
            { type: 'customer.subscription.deleted', subscription: toSubscription(ended) },
            now,
          );
        }
        return true;
      });
    }
    const customer = await this.#customer(row.customer_id);
    const price = discountedCents(row.plan as PaidPlanId, discountOf(row.discount_json));
    const credit = Math.min(customer.balance_cents, price);
    const amount = price - credit;
    const charge = await this.#charge(customer.card_token, amount);
    const nextEnd = addMonth(periodEnd);
    return this.db.transaction().execute(async (trx) => {
      const claimed = await repo.claimPeriodEnd(trx, row.id, periodEnd, {
        status: charge.ok ? 'active' : 'past_due',
        current_period_start: periodEnd,
        current_period_end: nextEnd,
      });
      if (!claimed) return false;
      if (credit > 0) await repo.addCustomerBalance(trx, customer.id, -credit);
      await repo.voidOpenInvoices(trx, row.id);
      await this.#invoice(trx, {
        customerId: customer.id,
        subscriptionId: row.id,
        amount,
        paid: charge.ok,
        failureMessage: charge.ok ? null : charge.message,
        periodStart: periodEnd,
        periodEnd: nextEnd,
        now,
      });
      const renewed = await repo.findSubscription(trx, row.id);
      if (renewed) {
        await this.#raise(
          trx,
          { type: 'customer.subscription.updated', subscription: toSubscription(renewed) },
          now,
        );
      }
      return true;
    });
  }

  /** Hands undelivered events to the listeners; each event goes out once, from one process. */
  async deliverPending(): Promise<void> {
    for (;;) {
      const pending = await repo.pendingEvents(this.db, batchSize);
      let failed = false;
      for (const row of pending) {
        if (!(await repo.claimEvent(this.db, row.id, new Date()))) continue;
        const event = reviveEvent(row.payload_json);
        try {
          for (const listener of this.#listeners) await listener(event);
        } catch (error) {
          // One event that cannot be applied now must not hold back the others.
          this.log?.error(
            { err: error, eventId: row.id },
            'billing event not applied; retried later',
          );
          await repo.unclaimEvent(this.db, row.id);
          failed = true;
        }
      }
      if (failed || pending.length < batchSize) return;
    }
  }

  /** Records an invoice (paid or failed) and raises invoice.paid / invoice.payment_failed. */
  async #invoice(
    trx: Kysely<Database>,
    input: {
      customerId: string;
      subscriptionId: string;
      amount: number;
      paid: boolean;
      failureMessage: string | null;
      periodStart: Date;
      periodEnd: Date;
      now: Date;
    },
  ): Promise<void> {
    const row = {
      id: newId('in'),
      customer_id: input.customerId,
      subscription_id: input.subscriptionId,
      status: input.paid ? 'paid' : 'open',
      amount_due: input.amount,
      amount_paid: input.paid ? input.amount : 0,
      period_start: input.periodStart,
      period_end: input.periodEnd,
      failure_message: input.failureMessage,
      created_at: input.now,
    };
    await repo.insertInvoice(trx, row);
    await this.#raise(
      trx,
      { type: input.paid ? 'invoice.paid' : 'invoice.payment_failed', invoice: toInvoice(row) },
      input.now,
    );
  }

  async #raise(
    trx: Kysely<Database>,
    event: DistributiveOmit<GatewayEvent, 'id'>,
    now: Date,
  ): Promise<void> {
    // Ids sort in the order events were raised: time first, then this process's counter.
    const id = `evt_${Date.now().toString(36).padStart(10, '0')}${(++this.#eventCounter)
      .toString(36)
      .padStart(6, '0')}${randomBytes(4).toString('hex')}`;
    await repo.insertEvent(trx, {
      id,
      type: event.type,
      payloadJson: JSON.stringify({ ...event, id }),
      createdAt: now,
    });
  }

  async #raiseSubscriptionUpdated(subscriptionId: string, now: Date): Promise<void> {
    const row = await this.#subscription(subscriptionId);
    await this.#raise(
      this.db,
      { type: 'customer.subscription.updated', subscription: toSubscription(row) },
      now,
    );
    await this.deliverPending();
  }

  async #charge(cardToken: string | null, amount: number): Promise<Charge> {
    if (amount <= 0) return { ok: true };
    if (!cardToken) return { ok: false, code: 'missing', message: cardMessages.noCard };
    const card = await repo.findCard(this.db, cardToken);
    if (!card || card.behaviour !== 'succeeds') {
      return { ok: false, code: 'card_declined', message: cardMessages.declined };
    }
    return { ok: true };
  }

  async #customer(id: string): Promise<repo.SandboxCustomerRow> {
    const customer = await repo.findCustomer(this.db, id);
    if (!customer) throw new Error(`No such customer: ${id}`);
    return customer;
  }

  async #subscription(id: string): Promise<repo.SandboxSubscriptionRow> {
    const row = await repo.findSubscription(this.db, id);
    if (!row) throw new Error(`No such subscription: ${id}`);
    return row;
  }

  /**
   * Runs `work` once per key: a repeated key answers from what the first call kept (`revive`
   * rebuilds the answer from it), a call that failed gives the key back, and a parallel call
   * (this process or another) waits for the first to finish. Events raised are delivered after.
   */
  async #once<T, K>(
    key: string,
    work: () => Promise<{ result: T; keep: K }>,
    revive: (kept: K) => Promise<T> = (kept) => Promise.resolve(kept as unknown as T),
  ): Promise<T> {
    const running = this.#inFlight.get(key);
    if (running) await running.catch(() => undefined);
    const attempt = (async () => {
      const kept = await this.#keptResult<K>(key);
      if (kept.found) return revive(kept.value);
      const now = await this.clock.now();
      if (!(await repo.claimIdempotencyKey(this.db, key, now))) {
        const waited = await this.#keptResult<K>(key, true);
        if (waited.found) return revive(waited.value);
        throw new Error('A request with this idempotency key failed; try again.');
      }
      try {
        const { result, keep } = await work();
        await repo.storeIdempotentResult(this.db, key, JSON.stringify(keep));
        await this.deliverPending();
        return result;
      } catch (error) {
        await repo.releaseIdempotencyKey(this.db, key);
        throw error;
      }
    })();
    this.#inFlight.set(key, attempt);
    try {
      return await attempt;
    } finally {
      if (this.#inFlight.get(key) === attempt) this.#inFlight.delete(key);
    }
  }

  /** The kept answer of a key; with `wait`, polls while another process is still running it. */
  async #keptResult<K>(
    key: string,
    wait = false,
  ): Promise<{ found: true; value: K } | { found: false }> {
    for (let attempt = 0; attempt < (wait ? 100 : 1); attempt++) {
      const stored = await repo.idempotentResult(this.db, key);
      if (stored) return { found: true, value: JSON.parse(stored) as K };
      if (stored === undefined && wait) return { found: false };
      if (wait) await sleep(50);
    }
    return { found: false };
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}

function discountOf(json: string | null): Discount | null {
  return json ? (JSON.parse(json) as Discount) : null;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]|^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

/** The card-number checksum every card form checks before anything is sent. */
function luhnValid(number: string): boolean {
  let sum = 0;
  for (let index = 0; index < number.length; index++) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function toSubscription(row: repo.SandboxSubscriptionRow): GatewaySubscription {
  return {
    id: row.id,
    customerId: row.customer_id,
    plan: row.plan as PaidPlanId,
    status: row.status as GatewaySubscriptionStatus,
    trialEnd: toOptionalDate(row.trial_end),
    currentPeriodStart: toDate(row.current_period_start),
    currentPeriodEnd: toDate(row.current_period_end),
    cancelAtPeriodEnd: toBoolean(row.cancel_at_period_end),
    canceledAt: toOptionalDate(row.canceled_at),
    endedAt: toOptionalDate(row.ended_at),
  };
}

function toInvoice(row: {
  id: string;
  customer_id: string;
  subscription_id: string | null;
  status: string;
  amount_due: number;
  amount_paid: number;
  period_start: Date | string;
  period_end: Date | string;
  failure_message: string | null;
  created_at: Date | string;
}): GatewayInvoice {
  return {
    id: row.id,
    customerId: row.customer_id,
    subscriptionId: row.subscription_id,
    status: row.status as GatewayInvoice['status'],
    amountDueCents: row.amount_due,
    amountPaidCents: row.amount_paid,
    currency: 'usd',
    periodStart: toDate(row.period_start),
    periodEnd: toDate(row.period_end),
    failureMessage: row.failure_message,
    createdAt: toDate(row.created_at),
  };
}

const dateFields = new Set([
  'trialEnd',
  'currentPeriodStart',
  'currentPeriodEnd',
  'canceledAt',
  'endedAt',
  'periodStart',
  'periodEnd',
  'createdAt',
]);

/** An event read back from the outbox, its dates Dates again. */
function reviveEvent(json: string): GatewayEvent {
  return JSON.parse(json, (key, value: unknown) =>
    dateFields.has(key) && typeof value === 'string' ? new Date(value) : value,
  ) as GatewayEvent;
}
