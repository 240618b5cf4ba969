import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  adminMessages,
  plans,
  voucherTypes,
  type CouponResponse,
  type CreateVoucherRequest,
  type PaidPlanId,
  type PlanId,
  type ProcessPaymentRequest,
  type SubscriptionState,
  type UpdatePaymentDetailsRequest,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { toBoolean, toDate, toOptionalDate } from '../../db/values.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import type { AccountService } from '../accounts/accounts.service.js';
import type { ScheduleService } from '../schedules/schedules.service.js';
import { billingMessages } from './billing.messages.js';
import type { BillingMails } from './billing-mail.js';
import * as repo from './billing.repository.js';
import {
  CardError,
  type Discount,
  type GatewayEvent,
  type GatewaySubscription,
  type PaymentGateway,
} from './payment-gateway.js';

export interface BillingServiceDeps {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  /** Billing time: the sandbox's BillingClock, or real time with a real provider. */
  now: () => Promise<Date>;
  /** Real time (scans count their credit in it). */
  clock: Clock;
  accounts: Pick<AccountService, 'findUser' | 'setPlan'>;
  schedules: Pick<ScheduleService, 'pauseBeyondAllowance'>;
  mails: BillingMails;
  log: FastifyBaseLogger;
}

export type BillingUser = Pick<SignedInUser, 'id' | 'email' | 'firstName' | 'lastName'>;

const dayMs = 24 * 3600 * 1000;
/**
 * How long a billing call may hold the user's lock: longer than any provider call takes, short
 * enough that a process dying mid-call blocks that user's billing only briefly.
 */
const userLockLeaseMs = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Gateway statuses in which the subscription still gives its plan. */
const liveStatuses = new Set(['trialing', 'active', 'past_due', 'unpaid', 'incomplete']);

/**
 * The paying path of SPEC §4 and §7 over a PaymentGateway: checkout, card update, plan change,
 * cancel, reactivate, re-subscribe; vouchers; and the provider's events, each applied once, which
 * keep billing_accounts and the user's plan in force in step with the provider. Amounts are never
 * taken from a request: the gateway prices the plan (core `plans`) less the voucher.
 */
export class BillingService {
  /**
   * One billing call per user at a time: in this process by a promise chain, across processes
   * (api servers behind a load balancer) by the user's row in billing_user_locks.
   */
  readonly #userLocks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: BillingServiceDeps) {
    deps.gateway.onEvent(async (event) => {
      await this.applyEvent(event);
    });
  }

  /** userInfo's billing fields (and every billing call's answer). */
  async state(userId: string): Promise<SubscriptionState> {
    const [user, account, now] = await Promise.all([
      this.deps.accounts.findUser(userId),
      repo.findBillingAccount(this.deps.db, userId),
      this.deps.now(),
    ]);
    const paidPlanId = (plans[user?.paidPlanId as PlanId] ? user?.paidPlanId : 'Free') as PlanId;
    if (!account) {
      return {
        paidPlanId,
        paymentFailed: false,
        cancelAtPeriodEnd: false,
        daysOfTrialLeft: 0,
        canceledAt: null,
        paymentGatewaySubscriptionId: null,
        voucher: null,
        currentPeriodEnd: null,
      };
    }
    const trialEnd = toOptionalDate(account.trial_end);
    const live = liveStatuses.has(account.status);
    return {
      paidPlanId,
      paymentFailed: live && toBoolean(account.payment_failed),
      cancelAtPeriodEnd: live && toBoolean(account.cancel_at_period_end),
      daysOfTrialLeft:
        account.status === 'trialing' && trialEnd
          ? Math.max(0, Math.ceil((trialEnd.getTime() - now.getTime()) / dayMs))
          : 0,
      canceledAt: toOptionalDate(account.canceled_at)?.toISOString() ?? null,
      paymentGatewaySubscriptionId: account.subscription_id,
      voucher: account.voucher,
      currentPeriodEnd: live
        ? (toOptionalDate(account.current_period_end)?.toISOString() ?? null)
        : null,
    };
  }

  /**
   * Where the user's monthly URL credit counts from, in real time: the start of the current
   * paid period (it resets each billing period), or null (the calendar month) without one.
   */
  async creditPeriodStart(userId: string): Promise<Date | null> {
    const account = await repo.findBillingAccount(this.deps.db, userId);
    if (!account || !liveStatuses.has(account.status)) return null;
    return toOptionalDate(account.credit_period_start);
  }

  /** GET /api/Account/ValidateCoupon: type and value, or 404 'Invalid Voucher…'. */
  async validateCoupon(code: string): Promise<CouponResponse> {
    const voucher = await this.#usableVoucher(code);
    return { type: voucher.type as CouponResponse['type'], value: voucher.value };
  }

  /** POST /api/Account/ProcessPayment: customer, card, subscription with the plan's trial. */
  processPayment(user: BillingUser, body: ProcessPaymentRequest): Promise<SubscriptionState> {
    return this.#serialized(user.id, async () => {
      const existing = await repo.findBillingAccount(this.deps.db, user.id);
      const key = `${user.id}:${body.idempotencyKey ?? randomUUID()}`;
      if (existing?.subscription_id && liveStatuses.has(existing.status)) {
        // A double click or a retried request: the checkout already went through.
        if (existing.payment_key === key) return this.state(user.id);
        throw conflict(billingMessages.alreadySubscribed);
      }
      const voucher = body.voucher ? await this.#usableVoucher(body.voucher) : null;
      const discount = voucher ? discountOf(voucher) : null;
      const free = discount?.kind === 'percent' && discount.percentOff >= 100;
      if (!free && !body.cardToken) throw badRequest(billingMessages.cardValidationFailed);
      const customerId =
        existing?.customer_id ??
        (
          await this.deps.gateway.createCustomer({
            userId: user.id,
            email: body.billingUser.email,
            name: body.billingUser.name,
          })
        ).id;
      if (!existing) await this.#insertAccount(user.id, customerId, body.plan);
      if (body.cardToken) {
        await cardCall(() =>
          this.deps.gateway.attachCard(customerId, body.cardToken ?? '', `${key}:card`),
        );
      }
      if (voucher && !(await repo.useVoucher(this.deps.db, voucher.code))) {
        throw notFound(billingMessages.invalidVoucher);
      }
      // One trial per account: a returning customer pays from the first day.
      const trialDays = existing?.subscription_id
        ? 0
        : voucher?.type === voucherTypes.trialDays
          ? voucher.value
          : plans[body.plan].trialDays;
      try {
        const subscription = await cardCall(() =>
          this.deps.gateway.createSubscription({
            customerId,
            plan: body.plan,
            trialDays,
            discount,
            idempotencyKey: `${key}:subscribe`,
          }),
        );
        await this.#sync(user.id, subscription, { voucher: voucher?.code ?? null });
        await repo.updateBillingAccount(this.deps.db, user.id, {
          payment_key: key,
          updated_at: await this.deps.now(),
        });
      } catch (error) {
        if (voucher) await repo.releaseVoucher(this.deps.db, voucher.code);
        throw error;
      }
      return this.state(user.id);
    });
  }

  /** POST /api/Account/UpdatePaymentDetails: the new card; a failed invoice is paid at once. */
  updatePaymentDetails(
    user: BillingUser,
    body: UpdatePaymentDetailsRequest,
  ): Promise<SubscriptionState> {
    return this.#serialized(user.id, async () => {
      const account = await this.#account(user.id);
      const key = `${user.id}:${body.idempotencyKey ?? randomUUID()}`;
      await cardCall(() =>
        this.deps.gateway.attachCard(account.customer_id, body.cardToken, `${key}:card`),
      );
      if (account.subscription_id && toBoolean(account.payment_failed)) {
        await cardCall(
          () => this.deps.gateway.payOpenInvoice(account.subscription_id ?? '', `${key}:pay`),
          billingMessages.cardProcessingError,
        );
        await this.#refresh(user.id, account.subscription_id);
        await repo.updateBillingAccount(this.deps.db, user.id, {
          payment_failed: false,
          updated_at: await this.deps.now(),
        });
      }
      return this.state(user.id);
    });
  }

  /** POST /api/Account/ChangeSubscription?newPlan=: at once, prorated by the gateway. */
  changeSubscription(user: BillingUser, newPlan: PaidPlanId): Promise<SubscriptionState> {
    return this.#serialized(user.id, async () => {
      const account = await this.#liveAccount(user.id);
      const subscriptionId = account.subscription_id ?? '';
      if (account.plan !== newPlan) {
        // The same request twice (a double click, a retry) carries the same key.
        const key = `${user.id}:change:${subscriptionId}:${account.plan}>${newPlan}:${toDate(account.updated_at).getTime()}`;
        const changed = await cardCall(() =>
          this.deps.gateway.changePlan(subscriptionId, newPlan, key),
        );
        await this.#sync(user.id, changed);
      }
      // Choosing a paid plan means staying: a pending cancellation is withdrawn.
      if (toBoolean(account.cancel_at_period_end)) {
        await this.#sync(user.id, await this.deps.gateway.reactivate(subscriptionId));
      }
      return this.state(user.id);
    });
  }

  /**
   * POST /api/Account/CreateSubscription?planId=: free → paid when the gateway already knows the
   * customer and card (SPEC §4: the subscription is re-created, no checkout).
   */
  createSubscription(user: BillingUser, planId: PaidPlanId): Promise<SubscriptionState> {
    return this.#serialized(user.id, async () => {
      const account = await repo.findBillingAccount(this.deps.db, user.id);
      if (!account) throw badRequest(billingMessages.noCardOnFile);
      if (account.subscription_id && liveStatuses.has(account.status)) {
        throw conflict(billingMessages.alreadySubscribed);
      }
      const key = `${user.id}:recreate:${planId}:${toDate(account.updated_at).getTime()}`;
      const subscription = await cardCall(() =>
        this.deps.gateway.createSubscription({
          customerId: account.customer_id,
          plan: planId,
          trialDays: 0,
          discount: null,
          idempotencyKey: key,
        }),
      );
      await this.#sync(user.id, subscription, { voucher: null });
      return this.state(user.id);
    });
  }

  /** POST /api/Account/ReactivateSubscription: undoes a cancellation before the period ends. */
  reactivate(user: BillingUser): Promise<SubscriptionState> {
    return this.#serialized(user.id, async () => {
      const account = await this.#liveAccount(user.id);
      if (!toBoolean(account.cancel_at_period_end)) throw conflict(billingMessages.notCancelled);
      await this.#sync(user.id, await this.deps.gateway.reactivate(account.subscription_id ?? ''));
      return this.state(user.id);
    });
  }

  /** POST /api/Account/CancelSubscription: the plan stays until the period's end, answered. */
  cancel(user: BillingUser): Promise<string> {
    return this.#serialized(user.id, async () => {
      const account = await this.#liveAccount(user.id);
      if (toBoolean(account.cancel_at_period_end)) throw conflict(billingMessages.alreadyCancelled);
      const subscription = await this.deps.gateway.cancelAtPeriodEnd(account.subscription_id ?? '');
      await this.#sync(user.id, subscription);
      return subscription.currentPeriodEnd.toISOString();
    });
  }

  /** An operator's voucher (`voucher create`, the admin API). */
  async createVoucher(request: CreateVoucherRequest): Promise<CreateVoucherRequest> {
    if (request.type === voucherTypes.percent && request.value > 100) {
      throw badRequest('A percentage voucher takes a value from 1 to 100.');
    }
    const inserted = await repo.insertVoucher(this.deps.db, {
      code: request.code,
      type: request.type,
      value: request.value,
      expires_at: request.expiresAt ? new Date(request.expiresAt) : null,
      max_uses: request.maxUses ?? null,
      created_at: this.deps.clock.now(),
    });
    if (inserted === 'duplicate') throw conflict(billingMessages.voucherExists(request.code));
    return request;
  }

  /** An administrator expires a voucher now: refused from then on, kept for the record. */
  async expireVoucher(code: string) {
    const before = (await this.listVouchers()).find((voucher) => voucher.code === code);
    if (!before) throw new HttpError(404, adminMessages.voucherNotFound);
    // Billing time (the sandbox clock may run ahead): the voucher is refused from this moment.
    await repo.expireVoucher(this.deps.db, code, await this.deps.now());
    const after = (await this.listVouchers()).find((voucher) => voucher.code === code) ?? before;
    return { before, after };
  }

  async listVouchers() {
    return (await repo.listVouchers(this.deps.db)).map((row) => ({
      code: row.code,
      type: row.type,
      value: row.value,
      expiresAt: toOptionalDate(row.expires_at)?.toISOString() ?? null,
      maxUses: row.max_uses,
      uses: row.uses,
    }));
  }

  /**
   * A provider event (sandbox: onEvent; Stripe: a verified webhook), applied once: a replayed
   * id changes nothing. The subscription is read back from the provider rather than trusted from
   * the event, so events arriving out of order still leave the latest state.
   */
  async applyEvent(event: GatewayEvent): Promise<'applied' | 'replay' | 'unknown'> {
    const now = await this.deps.now();
    if (!(await repo.markEventApplied(this.deps.db, event.id, event.type, now))) return 'replay';
    try {
      const subscriptionId =
        'subscription' in event ? event.subscription.id : event.invoice.subscriptionId;
      const customerId =
        'subscription' in event ? event.subscription.customerId : event.invoice.customerId;
      // By customer too: a new subscription's first invoice arrives before the call that
      // created it has recorded its id.
      const account =
        (subscriptionId
          ? await repo.findBillingAccountBySubscription(this.deps.db, subscriptionId)
          : undefined) ?? (await repo.findBillingAccountByCustomer(this.deps.db, customerId));
      if (!account || !subscriptionId) return 'unknown';
      // A late event of an earlier subscription must not replace the live one.
      const current = account.subscription_id;
      const earlier =
        current !== null && current !== subscriptionId && liveStatuses.has(account.status);
      if (!earlier) await this.#refresh(account.user_id, subscriptionId);
      const plan = (await repo.findBillingAccount(this.deps.db, account.user_id))
        ?.plan as PaidPlanId;
      if (event.type === 'invoice.payment_failed') {
        // An ended subscription's late failure says nothing about the live one's card.
        if (earlier) return 'applied';
        const mail = await this.deps.mails.paymentFailed(account.user_id, event.invoice, plan);
        await this.deps.db.transaction().execute(async (trx) => {
          await repo.updateBillingAccount(trx, account.user_id, {
            payment_failed: true,
            updated_at: now,
          });
          await this.deps.mails.queue(mail, trx);
        });
        this.deps.mails.sent();
      } else if (event.type === 'invoice.paid') {
        const mail =
          event.invoice.amountPaidCents > 0
            ? await this.deps.mails.receipt(account.user_id, event.invoice, plan)
            : undefined;
        await this.deps.db.transaction().execute(async (trx) => {
          if (!earlier) {
            await repo.updateBillingAccount(trx, account.user_id, {
              payment_failed: false,
              updated_at: now,
            });
          }
          await this.deps.mails.queue(mail, trx);
        });
        this.deps.mails.sent();
      }
      return 'applied';
    } catch (error) {
      await repo.forgetEvent(this.deps.db, event.id);
      throw error;
    }
  }

  async #refresh(userId: string, subscriptionId: string): Promise<void> {
    await this.#sync(userId, await this.deps.gateway.retrieveSubscription(subscriptionId));
  }

  /** billing_accounts and the plan in force follow the provider's subscription. */
  async #sync(
    userId: string,
    subscription: GatewaySubscription,
    extra: { voucher?: string | null } = {},
  ): Promise<void> {
    const live = liveStatuses.has(subscription.status);
    const before = await repo.findBillingAccount(this.deps.db, userId);
    const previousStart = before && toOptionalDate(before.current_period_start);
    const newPeriod =
      before?.subscription_id !== subscription.id ||
      previousStart?.getTime() !== subscription.currentPeriodStart.getTime();
    await repo.updateBillingAccount(this.deps.db, userId, {
      ...(newPeriod ? { credit_period_start: this.deps.clock.now() } : {}),
      subscription_id: subscription.id,
      plan: subscription.plan,
      status: subscription.status,
      trial_end: subscription.trialEnd,
      current_period_start: subscription.currentPeriodStart,
      current_period_end: subscription.currentPeriodEnd,
      cancel_at_period_end: subscription.cancelAtPeriodEnd,
      canceled_at: subscription.canceledAt,
      ...(subscription.status === 'past_due' || subscription.status === 'unpaid'
        ? { payment_failed: true }
        : subscription.status === 'active' || subscription.status === 'trialing'
          ? {}
          : { payment_failed: false }),
      ...(extra.voucher !== undefined ? { voucher: extra.voucher } : {}),
      updated_at: await this.deps.now(),
    });
    const plan: PlanId = live ? subscription.plan : 'Free';
    const user = await this.deps.accounts.findUser(userId);
    if (user && user.paidPlanId !== plan) {
      await this.deps.accounts.setPlan(userId, plan);
      // Downgrades never delete: schedules beyond the new allowance pause.
      await this.deps.schedules.pauseBeyondAllowance({ id: userId, planId: plan });
    }
  }

  async #insertAccount(userId: string, customerId: string, plan: PaidPlanId): Promise<void> {
    await repo.insertBillingAccount(this.deps.db, {
      user_id: userId,
      customer_id: customerId,
      subscription_id: null,
      plan,
      status: 'incomplete_expired',
      trial_end: null,
      current_period_start: null,
      current_period_end: null,
      canceled_at: null,
      voucher: null,
      payment_key: null,
      credit_period_start: null,
      updated_at: await this.deps.now(),
    });
  }

  async #usableVoucher(code: string): Promise<repo.VoucherRow> {
    const voucher = await repo.findVoucher(this.deps.db, code);
    const now = await this.deps.now();
    const expiresAt = voucher && toOptionalDate(voucher.expires_at);
    const usedUp = voucher?.max_uses != null && voucher.uses >= voucher.max_uses;
    if (!voucher || (expiresAt && expiresAt <= now) || usedUp) {
      throw notFound(billingMessages.invalidVoucher);
    }
    return voucher;
  }

  async #account(userId: string): Promise<repo.BillingAccountRow> {
    const account = await repo.findBillingAccount(this.deps.db, userId);
    if (!account) throw badRequest(billingMessages.noSubscription);
    return account;
  }

  /** The account with a subscription that has not ended. */
  async #liveAccount(userId: string): Promise<repo.BillingAccountRow> {
    const account = await this.#account(userId);
    if (!account.subscription_id) throw badRequest(billingMessages.noSubscription);
    if (!liveStatuses.has(account.status)) throw badRequest(billingMessages.subscriptionEnded);
    return account;
  }

  async #serialized<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#userLocks.get(userId) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(() => this.#acrossProcesses(userId, work));
    this.#userLocks.set(userId, current);
    try {
      return await current;
    } finally {
      if (this.#userLocks.get(userId) === current) this.#userLocks.delete(userId);
    }
  }

  /**
   * Runs `work` holding the user's database lock. A call of another process holding it is waited
   * for (until it ends, or its lease does), so a double click sent to two servers runs one after
   * the other and the second finds the first's result (same idempotency key) instead of paying.
   */
  async #acrossProcesses<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const holder = randomUUID();
    for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
      const now = this.deps.clock.now();
      const expiresAt = new Date(now.getTime() + userLockLeaseMs);
      if (await repo.tryLockUser(this.deps.db, userId, holder, now, expiresAt)) break;
      await sleep(wait);
    }
    try {
      return await work();
    } finally {
      await repo.unlockUser(this.deps.db, userId, holder);
    }
  }
}

function discountOf(voucher: repo.VoucherRow): Discount | null {
  if (voucher.type === voucherTypes.fixedCents) {
    return { kind: 'fixed', amountOffCents: voucher.value };
  }
  if (voucher.type === voucherTypes.percent) return { kind: 'percent', percentOff: voucher.value };
  return null;
}

/**
 * A gateway call whose card refusal becomes SPEC §8's answer: 400 with the provider's message
 * (the web app shows it); `fallback` replaces a message-less refusal.
 */
async function cardCall<T>(call: () => Promise<T>, fallback?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CardError) {
      const message = error.message || fallback || billingMessages.cardValidationFailed;
      throw new HttpError(400, message, { exceptionMessage: message });
    }
    throw error;
  }
}

function badRequest(message: string): HttpError {
  return new HttpError(400, message, { exceptionMessage: message });
}
function conflict(message: string): HttpError {
  return new HttpError(409, message, { exceptionMessage: message });
}
function notFound(message: string): HttpError {
  return new HttpError(404, message, { exceptionMessage: message });
}
