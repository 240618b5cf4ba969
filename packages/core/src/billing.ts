import { z } from 'zod';
import { planIds, type PlanId } from './account.js';

/**
 * The billing calls of SPEC §7 and the vouchers of SPEC §4, one schema per request and answer,
 * shared by the server (validation), the web app (forms, answers) and the tests.
 */

export const paidPlanIds = ['Basic', 'Premium', 'Enterprise'] as const satisfies readonly PlanId[];
export type PaidPlanId = (typeof paidPlanIds)[number];
export const paidPlanIdSchema = z.enum(paidPlanIds);
export const planIdSchema = z.enum(planIds);

/** SPEC §4 voucher types: 0 trial extended to `value` days, 1 fixed cents off, 2 percent off. */
export const voucherTypes = { trialDays: 0, fixedCents: 1, percent: 2 } as const;
export type VoucherType = (typeof voucherTypes)[keyof typeof voucherTypes];
export const voucherTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** A voucher code as typed: case sensitive (SPEC §5), so never trimmed of case or changed. */
export const voucherCodeSchema = z.string().trim().min(1).max(64);

/** GET /api/Account/ValidateCoupon?coupon= */
export const validateCouponQuerySchema = z.object({ coupon: voucherCodeSchema });
/** SPEC §3 Coupon response. */
export const couponResponseSchema = z.object({
  type: voucherTypeSchema,
  value: z.number().int().nonnegative(),
});
export type CouponResponse = z.infer<typeof couponResponseSchema>;

/** A card token from the gateway's card form (sandbox form or Stripe Elements), never a number. */
export const cardTokenSchema = z.string().trim().min(1).max(255);

/** Who is billed: receipts go to this address, the name is printed on them. */
export const billingUserSchema = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(254),
});
export type BillingUser = z.infer<typeof billingUserSchema>;

/**
 * POST /api/Account/ProcessPayment (SPEC §7: card token, plan, billingUser): starts the paid
 * plan's trial with the card on file. No card token when a 100 % voucher makes the plan free.
 * `idempotencyKey` (one per dialog opening) makes a double click or a retried request charge
 * once.
 */
export const processPaymentRequestSchema = z.object({
  cardToken: cardTokenSchema.nullish(),
  plan: paidPlanIdSchema,
  billingUser: billingUserSchema,
  voucher: voucherCodeSchema.nullish(),
  idempotencyKey: z.string().trim().min(8).max(100).nullish(),
});
export type ProcessPaymentRequest = z.infer<typeof processPaymentRequestSchema>;

/** POST /api/Account/UpdatePaymentDetails: a new card; retries a failed invoice at once. */
export const updatePaymentDetailsRequestSchema = z.object({
  cardToken: cardTokenSchema,
  idempotencyKey: z.string().trim().min(8).max(100).nullish(),
});
export type UpdatePaymentDetailsRequest = z.infer<typeof updatePaymentDetailsRequestSchema>;

/** POST /api/Account/ChangeSubscription?newPlan= */
export const changeSubscriptionQuerySchema = z.object({ newPlan: paidPlanIdSchema });
/** POST /api/Account/CreateSubscription?planId= */
export const createSubscriptionQuerySchema = z.object({ planId: paidPlanIdSchema });

/** The plan state every billing call answers with (the same fields as userInfo's). */
export const subscriptionStateSchema = z.object({
  paidPlanId: planIdSchema,
  paymentFailed: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  daysOfTrialLeft: z.number().int().nonnegative(),
  canceledAt: z.string().nullable(),
  paymentGatewaySubscriptionId: z.string().nullable(),
  voucher: z.string().nullable(),
  /** End of the paid period (ISO), null on Free. */
  currentPeriodEnd: z.string().nullable(),
});
export type SubscriptionState = z.infer<typeof subscriptionStateSchema>;

/**
 * POST /api/Account/CancelSubscription answers the end date as text (SPEC §7): an ISO date-time
 * string as the JSON body, which each client formats in its own language.
 */
export const cancelSubscriptionResponseSchema = z.string();

/** Sandbox card form → POST /api/billing/sandbox/tokens (sandbox gateway only). */
export const sandboxCardSchema = z.object({
  number: z
    .string()
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/)),
  expMonth: z.coerce.number().int().min(1).max(12),
  expYear: z.coerce.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/),
});
export const sandboxTokenResponseSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
});

/** GET /api/billing/config: which card form the web app shows. */
export const billingConfigSchema = z.object({
  gateway: z.enum(['sandbox', 'stripe']),
  /** Stripe's publishable key when the gateway is Stripe. */
  publishableKey: z.string().nullable(),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;

/** An operator's voucher (`npm start -- voucher create …`, admin API). */
export const createVoucherRequestSchema = z.object({
  code: voucherCodeSchema,
  type: voucherTypeSchema,
  value: z.number().int().positive(),
  /** ISO date-time after which it is refused; null = never. */
  expiresAt: z.iso.datetime().nullish(),
  /** How many subscriptions may use it; null = no limit. */
  maxUses: z.number().int().positive().nullish(),
});
export type CreateVoucherRequest = z.infer<typeof createVoucherRequestSchema>;

/** GET /api/admin/vouchers: every voucher, newest first, with its uses. */
export const voucherListSchema = z.array(
  z.object({
    code: z.string(),
    type: z.number(),
    value: z.number(),
    expiresAt: z.string().nullable(),
    maxUses: z.number().nullable(),
    uses: z.number(),
  }),
);
export type VoucherListItem = z.infer<typeof voucherListSchema>[number];

/** PUT /api/admin/vouchers/expire: the voucher is refused from now on (it is kept). */
export const expireVoucherRequestSchema = z.object({ code: voucherCodeSchema });
