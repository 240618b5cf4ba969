import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  expireVoucherRequestSchema,
  voucherListSchema,
  billingConfigSchema,
  cancelSubscriptionResponseSchema,
  changeSubscriptionQuerySchema,
  couponResponseSchema,
  createSubscriptionQuerySchema,
  createVoucherRequestSchema,
  processPaymentRequestSchema,
  sandboxCardSchema,
  sandboxTokenResponseSchema,
  subscriptionStateSchema,
  updatePaymentDetailsRequestSchema,
  validateCouponQuerySchema,
  type BillingConfig,
} from '@linkaudit/core';
import { HttpError } from '../../plugins/error-handler.js';
import { signedInUser, type SignedInUser } from '../../plugins/authentication.js';
import type { BillingService } from './billing.service.js';
import { CardError, WebhookSignatureError, type PaymentGateway } from './payment-gateway.js';
import type { SandboxGateway } from './sandbox-gateway.js';
import { UnhandledWebhookEventError } from './stripe-gateway.js';

export interface BillingRouteDeps {
  billing: BillingService;
  gateway: PaymentGateway;
  sandbox: SandboxGateway | null;
  /** Stripe's publishable key (the web app's Elements), null in sandbox mode. */
  publishableKey: string | null;
  /** Requests per minute and client address on the sandbox card form. */
  rateLimitPerMinute: number;
  /** Writes an administrator's voucher change to the audit log (the admin module's). */
  auditVoucher?: VoucherAudit;
}

/** An administrator's voucher change for the audit log: who, what, which code, before, after. */
export type VoucherAudit = (
  admin: SignedInUser,
  action: 'voucher.create' | 'voucher.expire',
  code: string,
  before: unknown,
  after: unknown,
) => Promise<void>;

/** SPEC §7 Billing, the web app's billing config, the provider's webhook, operators' vouchers. */
export function registerBillingRoutes(app: FastifyInstance, deps: BillingRouteDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { billing } = deps;
  const signedIn = { onRequest: app.requireUser };
  const state = { response: { 200: subscriptionStateSchema } };

  // No sign-in (SPEC §7 names no Bearer here): a visitor in join-and-pay learns of a refused
  // voucher before an account is made. Rate-limited per client address like the card form, so
  // codes cannot be guessed in bulk; a check takes no use of the voucher.
  routes.get(
    '/api/Account/ValidateCoupon',
    {
      config: { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { querystring: validateCouponQuerySchema, response: { 200: couponResponseSchema } },
    },
    (request) => billing.validateCoupon(request.query.coupon),
  );
  routes.post(
    '/api/Account/ProcessPayment',
    { ...signedIn, schema: { body: processPaymentRequestSchema, ...state } },
    (request) => billing.processPayment(signedInUser(request), request.body),
  );
  routes.post(
    '/api/Account/UpdatePaymentDetails',
    { ...signedIn, schema: { body: updatePaymentDetailsRequestSchema, ...state } },
    (request) => billing.updatePaymentDetails(signedInUser(request), request.body),
  );
  routes.post(
    '/api/Account/ChangeSubscription',
    { ...signedIn, schema: { querystring: changeSubscriptionQuerySchema, ...state } },
    (request) => billing.changeSubscription(signedInUser(request), request.query.newPlan),
  );
  routes.post(
    '/api/Account/CreateSubscription',
    { ...signedIn, schema: { querystring: createSubscriptionQuerySchema, ...state } },
    (request) => billing.createSubscription(signedInUser(request), request.query.planId),
  );
  routes.post('/api/Account/ReactivateSubscription', { ...signedIn, schema: state }, (request) =>
    billing.reactivate(signedInUser(request)),
  );
  routes.post(
    '/api/Account/CancelSubscription',
    { ...signedIn, schema: { response: { 200: cancelSubscriptionResponseSchema } } },
    async (request, reply) => {
      const end = await billing.cancel(signedInUser(request));
      // Fastify sends a returned string as it is; the answer is the JSON string of the date.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(end));
    },
  );

  const config: BillingConfig = {
    gateway: deps.gateway.kind,
    publishableKey: deps.publishableKey,
  };
  routes.get('/api/billing/config', { schema: { response: { 200: billingConfigSchema } } }, () =>
    Promise.resolve(config),
  );

  registerSandboxTokens(app, deps);
  registerWebhook(app, deps);
  registerVoucherAdmin(app, billing, deps.auditVoucher);
}

/**
 * The sandbox card form posts here (sandbox mode only): the number is turned into a token at
 * once and only brand, last 4 digits and the test behaviour are kept. Like a provider's own
 * tokenisation, it needs no sign-in (join-and-pay tokenises before the account exists).
 */
function registerSandboxTokens(app: FastifyInstance, deps: BillingRouteDeps): void {
  const { sandbox } = deps;
  if (!sandbox) return;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/billing/sandbox/tokens',
    {
      config: { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: sandboxCardSchema, response: { 200: sandboxTokenResponseSchema } },
    },
    async (request) => {
      try {
        return await sandbox.createCardToken(request.body);
      } catch (error) {
        if (error instanceof CardError) {
          throw new HttpError(400, error.message, { exceptionMessage: error.message });
        }
        throw error;
      }
    },
  );
}

/**
 * POST /api/billing/webhook: the provider's notification, verified by the gateway from the raw
 * body and its signature header (400 when it does not verify), then applied once; a replay of an
 * event already applied is answered 200 and changes nothing.
 */
function registerWebhook(app: FastifyInstance, deps: BillingRouteDeps): void {
  void app.register((scope, _options, done) => {
    // The signature covers the exact bytes sent, so this route reads the body unparsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, parsed) => {
      parsed(null, body);
    });
    scope.post('/api/billing/webhook', async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      let event;
      try {
        event = deps.gateway.parseWebhook(raw, Array.isArray(header) ? header[0] : header);
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          throw new HttpError(400, error.message);
        }
        // Verified, but of a type billing does not act on: acknowledged so it is not retried.
        if (error instanceof UnhandledWebhookEventError) return { received: true, replay: false };
        throw error;
      }
      const outcome = await deps.billing.applyEvent(event);
      return { received: true, replay: outcome === 'replay' };
    });
    done();
  });
}

/** The admin API for vouchers (SPEC §4): admins only, like the other /api/admin routes. */
function registerVoucherAdmin(
  app: FastifyInstance,
  billing: BillingService,
  audit: VoucherAudit = () => Promise.resolve(),
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { onRequest: app.requireAdmin };
  routes.post(
    '/api/admin/vouchers',
    { ...guarded, schema: { body: createVoucherRequestSchema } },
    async (request) => {
      const created = await billing.createVoucher(request.body);
      await audit(signedInUser(request), 'voucher.create', created.code, null, created);
      return created;
    },
  );
  // Expiring keeps the voucher (subscriptions that used it keep their discount); new uses stop.
  routes.put(
    '/api/admin/vouchers/expire',
    { ...guarded, schema: { body: expireVoucherRequestSchema } },
    async (request) => {
      const change = await billing.expireVoucher(request.body.code);
      await audit(
        signedInUser(request),
        'voucher.expire',
        request.body.code,
        change.before,
        change.after,
      );
      return change.after;
    },
  );
  routes.get(
    '/api/admin/vouchers',
    { ...guarded, schema: { response: { 200: voucherListSchema } } },
    () => billing.listVouchers(),
  );
}
