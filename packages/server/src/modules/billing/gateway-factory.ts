import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { BillingClock } from './billing-clock.js';
import type { PaymentGateway } from './payment-gateway.js';
import { SandboxGateway } from './sandbox-gateway.js';
import { createStripeGateway, stripeGatewayConfigFromEnv } from './stripe-gateway.js';

export interface GatewaySetup {
  gateway: PaymentGateway;
  /** The embedded sandbox (its card form, renewals, clock); null with a real provider. */
  sandbox: SandboxGateway | null;
  /** Billing time: the sandbox's clock (real time + offset), or real time. */
  now: () => Promise<Date>;
}

/**
 * The gateway the configuration selects: the sandbox by default, Stripe when STRIPE_SECRET_KEY
 * is set (every other STRIPE_* setting is then required, checked by the adapter at start).
 */
export function createGateway(
  config: Pick<Config, 'billing'>,
  db: Kysely<Database>,
  clock: Clock,
  log: FastifyBaseLogger,
): GatewaySetup {
  if (config.billing.gateway === 'stripe') {
    const stripe = stripeGatewayConfigFromEnv(config.billing.stripeEnvironment);
    if (!stripe) throw new Error('STRIPE_SECRET_KEY is empty.');
    return {
      gateway: createStripeGateway({ ...stripe, clock }),
      sandbox: null,
      now: () => Promise.resolve(clock.now()),
    };
  }
  const billingClock = new BillingClock(db, clock);
  const sandbox = new SandboxGateway(db, billingClock, log);
  return { gateway: sandbox, sandbox, now: () => billingClock.now() };
}
