import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { paidPlanIds, plans, type PaidPlanId } from '@linkaudit/core';
import type { StripeGatewayConfig } from '../modules/billing/stripe-gateway.js';
import {
  FakeBilling,
  FakeStripeError,
  newId,
  type FakeEvent,
  type FakeEventObject,
  type FormObject,
  type FormValue,
} from './stripe-fake-billing.js';

/**
 * A local HTTP server on 127.0.0.1 that speaks the part of Stripe's API the Stripe adapter
 * uses (issue 22), so the adapter is tested through the real `stripe` package and real HTTP:
 * form-encoded requests with bracketed keys, JSON answers shaped as Stripe's (types from the
 * `stripe` package), Stripe's error objects and status codes (402 for cards), Idempotency-Key
 * replays, a clock the test moves (renewals, trial ends, cancellations at period end) and
 * webhooks signed exactly as Stripe signs them.
 */
export interface StripeTestServer {
  readonly origin: string;
  readonly port: number;
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  /** The Price id of each paid plan, priced as core `plans` says. */
  readonly prices: Record<PaidPlanId, string>;
  /** Where events are POSTed; null: events are kept but not delivered. */
  webhookUrl: string | null;
  /** Every API request, oldest first. */
  readonly requests: RecordedRequest[];
  /** Every event raised, oldest first. */
  readonly events: FakeEvent[];
  /** Every webhook delivery made, oldest first (the exact body and signature sent). */
  readonly deliveries: WebhookDelivery[];
  readonly billing: FakeBilling;
  /** The adapter's settings for this server (API address, keys, prices). */
  gatewayConfig(): StripeGatewayConfig;
  /** The same as environment variables, for a server process started by a test. */
  environment(): Record<string, string>;
  /** The server's time (unix seconds): the wall clock plus what the test advanced. */
  now(): number;
  /**
   * Moves the clock forward, renewing or ending each subscription whose period ends on the
   * way, in order, and resolves once every event raised was delivered.
   */
  advanceClock(seconds: number): Promise<void>;
  /** Resolves once every event raised so far was delivered. */
  settled(): Promise<void>;
  /**
   * Delivers an event again, signed afresh, as Stripe does when it retries (at `signedAt`,
   * unix seconds; default: now).
   */
  redeliver(eventId: string, signedAt?: number): Promise<WebhookDelivery>;
  /** Stripe's `Stripe-Signature` header for a payload at a unix time. */
  signatureHeader(payload: string, timestamp: number): string;
  /** What Stripe Elements does in the browser: a card's details → a PaymentMethod id. */
  createCardPaymentMethod(card: {
    number: string;
    expMonth?: number;
    expYear?: number;
    cvc?: string;
  }): Promise<string>;
  stop(): Promise<void>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  form: FormObject;
  status: number;
  replayed: boolean;
}

export interface WebhookDelivery {
  event: FakeEvent;
  body: string;
  signature: string;
  status: number;
}

interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
}

/** The event types a LinkAudit webhook endpoint is registered for in Stripe's dashboard. */
const enabledEvents = new Set<Stripe.Event['type']>([
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

const apiVersion: Stripe.LatestApiVersion = '2026-10-28.endive';

/**
 * The top-level parameters each call takes, checked against the `stripe` package's request
 * types (generated from Stripe's OpenAPI description): a name Stripe does not know fails to
 * compile here, and a request naming a parameter not listed is refused as Stripe refuses it
 * ("Received unknown parameter"), so an adapter sending a removed or misspelt one fails its
 * tests. Only what this server implements is listed.
 */
const acceptedParameters: Record<string, readonly string[]> = {
  'POST customers': ['email', 'name', 'metadata'] satisfies (keyof Stripe.CustomerCreateParams)[],
  'POST customers/:id': [
    'email',
    'name',
    'invoice_settings',
  ] satisfies (keyof Stripe.CustomerUpdateParams)[],
  'POST payment_methods': ['type', 'card'] satisfies (keyof Stripe.PaymentMethodCreateParams)[],
  'POST payment_methods/:id/attach': [
    'customer',
  ] satisfies (keyof Stripe.PaymentMethodAttachParams)[],
  'POST coupons': [
    'id',
    'amount_off',
    'percent_off',
    'currency',
    'duration',
    'name',
    'metadata',
  ] satisfies (keyof Stripe.CouponCreateParams)[],
  'POST subscriptions': [
    'customer',
    'items',
    'trial_period_days',
    'discounts',
    'payment_behavior',
    'metadata',
  ] satisfies (keyof Stripe.SubscriptionCreateParams)[],
  'POST subscriptions/:id': [
    'items',
    'proration_behavior',
    'payment_behavior',
    'cancel_at_period_end',
    'metadata',
  ] satisfies (keyof Stripe.SubscriptionUpdateParams)[],
  'GET invoices': [
    'customer',
    'subscription',
    'status',
    'limit',
  ] satisfies (keyof Stripe.InvoiceListParams)[],
  'POST invoices/:id/pay': ['payment_method'] satisfies (keyof Stripe.InvoicePayParams)[],
};

function checkParameters(call: string, form: FormObject): void {
  const accepted = acceptedParameters[call] ?? [];
  const unknown = Object.keys(form).find((name) => !accepted.includes(name));
  if (unknown)
    throw FakeStripeError.invalid(
      `Received unknown parameter: ${unknown}`,
      unknown,
      'parameter_unknown',
    );
}

export async function startStripeTestServer(
  options: { webhookUrl?: string | null } = {},
): Promise<StripeTestServer> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const publishableKey = `pk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const prices = Object.fromEntries(
    paidPlanIds.map((plan) => [plan, `price_linkaudit_${plan.toLowerCase()}`]),
  ) as Record<PaidPlanId, string>;
  let offsetSeconds = 0;
  const now = () => Math.floor(Date.now() / 1000) + offsetSeconds;
  const idempotent = new Map<string, StoredResponse>();
  let deliveryChain: Promise<unknown> = Promise.resolve();
  /** Events raised while a request is handled wait for its answer, as Stripe's do. */
  let raisedDuringRequest: FakeEvent[] | null = null;

  const billing = new FakeBilling({
    prices: paidPlanIds.map((plan) => ({
      id: prices[plan],
      unitAmount: Math.round(plans[plan].monthlyPriceUsd * 100),
    })),
    now,
    emit: (type, object, previous) => raise(type, object, previous),
  });

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  const stand: StripeTestServer = {
    origin,
    port,
    secretKey,
    publishableKey,
    webhookSecret,
    prices,
    webhookUrl: options.webhookUrl ?? null,
    requests: [],
    events: [],
    deliveries: [],
    billing,
    gatewayConfig: () => ({
      secretKey,
      publishableKey,
      webhookSecret,
      prices: { ...prices },
      api: { host: '127.0.0.1', port, protocol: 'http' },
    }),
    environment: () => ({
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_PUBLISHABLE_KEY: publishableKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_BASIC: prices.Basic,
      STRIPE_PRICE_PREMIUM: prices.Premium,
      STRIPE_PRICE_ENTERPRISE: prices.Enterprise,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
    }),
    now,
    async advanceClock(seconds) {
      const target = now() + seconds;
      // Step from one due moment to the next, so a renewal happens at its period's end.
      for (
        let due = billing.nextDueAt();
        due !== null && due <= target;
        due = billing.nextDueAt()
      ) {
        offsetSeconds += Math.max(due - now(), 0);
        billing.runDue(now());
      }
      offsetSeconds += Math.max(target - now(), 0);
      await stand.settled();
    },
    settled: async () => {
      // A delivery may raise nothing new, but loop in case one was queued meanwhile.
      let chain: Promise<unknown>;
      do {
        chain = deliveryChain;
        await chain;
      } while (chain !== deliveryChain);
    },
    async redeliver(eventId, signedAt) {
      const event = stand.events.find((candidate) => candidate.id === eventId);
      if (!event) throw new Error(`No event ${eventId}`);
      return deliver(event, signedAt);
    },
    signatureHeader: (payload, timestamp) => {
      const signature = createHmac('sha256', webhookSecret)
        .update(`${timestamp}.${payload}`)
        .digest('hex');
      return `t=${timestamp},v1=${signature}`;
    },
    async createCardPaymentMethod(card) {
      const form = new URLSearchParams({
        type: 'card',
        'card[number]': card.number,
        'card[exp_month]': String(card.expMonth ?? 12),
        'card[exp_year]': String(card.expYear ?? new Date().getUTCFullYear() + 3),
        'card[cvc]': card.cvc ?? '123',
      });
      const response = await fetch(`${origin}/v1/payment_methods`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${publishableKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form,
      });
      const body = (await response.json()) as { id?: string; error?: { message: string } };
      if (!response.ok || !body.id)
        throw new Error(body.error?.message ?? `HTTP ${response.status}`);
      return body.id;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function raise(
    type: Stripe.Event['type'],
    object: FakeEventObject,
    previous?: Record<string, unknown>,
  ): void {
    const event: FakeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: apiVersion,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: previous ? { object, previous_attributes: previous } : { object },
    };
    stand.events.push(event);
    if (!enabledEvents.has(type)) return;
    if (raisedDuringRequest) raisedDuringRequest.push(event);
    else queueDelivery(event);
  }

  function queueDelivery(event: FakeEvent): void {
    deliveryChain = deliveryChain.then(() => (stand.webhookUrl ? deliver(event) : undefined));
  }

  async function deliver(event: FakeEvent, signedAt?: number): Promise<WebhookDelivery> {
    const url = stand.webhookUrl;
    if (!url) throw new Error('No webhook URL set');
    // Stripe signs each delivery attempt with the wall-clock time it is sent at.
    const body = JSON.stringify(event, null, 2);
    const signature = stand.signatureHeader(body, signedAt ?? Math.floor(Date.now() / 1000));
    let status: number;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body,
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0; // Nobody listening: Stripe records the attempt as failed.
    }
    const delivery = { event, body, signature, status };
    stand.deliveries.push(delivery);
    return delivery;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const raw = await readBody(req);
    const method = req.method ?? 'GET';
    const form = decodeForm(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : raw);
    const key = header(req, 'idempotency-key');
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      idempotencyKey: key,
      form,
      status: 0,
      replayed: false,
    };
    stand.requests.push(record);
    const answer = (status: number, body: string, extra: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(8).toString('hex')}`,
        'stripe-version': apiVersion,
        ...(key ? { 'idempotency-key': key } : {}),
        ...extra,
      });
      res.end(body);
    };

    const auth = authorize(req, method, url.pathname);
    if (auth) return answer(auth.status, errorBody(auth));

    if (key && method === 'POST') {
      const fingerprint = `${method} ${url.pathname} ${raw}`;
      const stored = idempotent.get(key);
      if (stored) {
        if (stored.fingerprint !== fingerprint) {
          const error = new FakeStripeError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          });
          return answer(400, errorBody(error));
        }
        record.replayed = true;
        return answer(stored.status, stored.body, { 'idempotent-replayed': 'true' });
      }
    }

    raisedDuringRequest = [];
    let status: number;
    let body: string;
    try {
      body = JSON.stringify(route(method, url.pathname, form), null, 2);
      status = 200;
    } catch (error) {
      if (!(error instanceof FakeStripeError)) throw error;
      status = error.status;
      body = errorBody(error);
    }
    const raised = raisedDuringRequest;
    raisedDuringRequest = null;
    // Stripe keeps the answer of a key once the request ran, errors included (not 5xx).
    if (key && method === 'POST')
      idempotent.set(key, { fingerprint: `${method} ${url.pathname} ${raw}`, status, body });
    for (const event of raised) event.request = { id: null, idempotency_key: key };
    answer(status, body);
    for (const event of raised) queueDelivery(event);
  }

  /** A secret key for everything; the publishable key only for what Elements may call. */
  function authorize(req: IncomingMessage, method: string, path: string): FakeStripeError | null {
    const bearer = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    if (bearer === secretKey) return null;
    if (bearer === publishableKey && method === 'POST' && path === '/v1/payment_methods')
      return null;
    return new FakeStripeError(401, {
      type: 'invalid_request_error',
      message: bearer
        ? `Invalid API Key provided: ${bearer.slice(0, 8)}****`
        : 'You did not provide an API key.',
    });
  }

  function route(method: string, path: string, form: FormObject): unknown {
    const [, version, resource, id, action] = path.split('/');
    if (version !== 'v1' || !resource) throw unknownPath(method, path);
    const call = `${method} ${resource}${id ? '/:id' : ''}${action ? `/${action}` : ''}`;
    checkParameters(call, form);
    switch (call) {
      case 'POST customers':
        return billing.createCustomer(form);
      case 'GET customers/:id':
        return billing.customer(id!);
      case 'POST customers/:id':
        return billing.updateCustomer(id!, form);
      case 'POST payment_methods':
        return billing.createPaymentMethod(form);
      case 'GET payment_methods/:id':
        return billing.paymentMethod(id!);
      case 'POST payment_methods/:id/attach':
        return billing.attachPaymentMethod(id!, form);
      case 'POST coupons':
        return billing.createCoupon(form);
      case 'GET coupons/:id':
        return billing.coupon(id!);
      case 'POST subscriptions':
        return billing.createSubscription(form);
      case 'GET subscriptions/:id':
        return billing.subscription(id!);
      case 'POST subscriptions/:id':
        return billing.updateSubscription(id!, form);
      case 'GET invoices':
        return list('/v1/invoices', billing.listInvoices(form));
      case 'GET invoices/:id':
        return billing.invoice(id!);
      case 'POST invoices/:id/pay':
        return billing.payInvoice(id!, form);
      default:
        throw unknownPath(method, path);
    }
  }

  return stand;
}

function list<T>(url: string, data: T[]): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: false, url };
}

function unknownPath(method: string, path: string): FakeStripeError {
  return new FakeStripeError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}

function errorBody(error: FakeStripeError): string {
  return JSON.stringify({ error: error.error }, null, 2);
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Stripe's form encoding: `items[0][price]=x&metadata[a]=b` → `{ items: { 0: { price: x } },
 * metadata: { a: b } }` (lists stay objects keyed by index; `listOf` reads them back).
 */
export function decodeForm(encoded: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(encoded)) {
    const [head, ...rest] = name.split('[');
    const path = [head ?? '', ...rest.map((part) => part.replace(/\]$/, ''))];
    let node: FormObject = root;
    for (const [i, segment] of path.entries()) {
      if (i === path.length - 1) {
        node[segment] = value;
      } else {
        const next: FormValue | undefined = node[segment];
        if (typeof next === 'object') node = next;
        else node = node[segment] = {};
      }
    }
  }
  return root;
}
