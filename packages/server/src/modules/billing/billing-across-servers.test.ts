import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { billingMessages } from './billing.messages.js';
import { testCards } from './test-cards.js';

/**
 * Two api servers on one database, as behind a load balancer: a double click whose two requests
 * reach different servers must still charge once (the per-process queue cannot see the other).
 */
describe.each(testDialects())('ProcessPayment across two servers (%s)', (dialect) => {
  let first: TestServer;
  let second: TestServer;
  let one: ApiClient;
  let two: ApiClient;

  beforeAll(async () => {
    first = await startTestServer(dialect);
    second = await startTestServer(dialect, {
      DATA_DIR: first.config.dataDir,
      ...(first.config.databaseUrl ? { DATABASE_URL: first.config.databaseUrl } : {}),
    });
    one = apiClient(first.baseUrl);
    two = apiClient(second.baseUrl);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  async function cardToken(api: ApiClient, number: string): Promise<string> {
    const answer = await api.post('/api/billing/sandbox/tokens', {
      number,
      expMonth: 12,
      expYear: 2099,
      cvc: '123',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return String(answer.body.id);
  }

  const payment = (cardToken: string, idempotencyKey: string) => ({
    plan: 'Basic',
    cardToken,
    billingUser: { name: 'Ada Payer', email: 'billing@example.com' },
    voucher: null,
    idempotencyKey,
  });

  /** What the provider (the sandbox, in the shared database) holds for the user. */
  async function providerState(email: string) {
    const { db } = first.database;
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const customers = await db
      .selectFrom('sandbox_customers')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    const ids = customers.map((customer) => customer.id);
    const subscriptions = ids.length
      ? await db
          .selectFrom('sandbox_subscriptions')
          .select('id')
          .where('customer_id', 'in', ids)
          .execute()
      : [];
    const invoices = ids.length
      ? await db
          .selectFrom('sandbox_invoices')
          .select('id')
          .where('customer_id', 'in', ids)
          .execute()
      : [];
    const locks = await db
      .selectFrom('billing_user_locks')
      .select('user_id')
      .where('user_id', '=', user.id)
      .execute();
    return {
      customers: ids.length,
      subscriptions: subscriptions.length,
      invoices: invoices.length,
      locks: locks.length,
    };
  }

  it('charges a double click sent to two servers once, and answers both alike', async () => {
    const { email, token } = await signUp(one, 'double-click');
    const card = await cardToken(one, testCards.succeeds);
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([
      one.post('/api/Account/ProcessPayment', payment(card, key), token),
      two.post('/api/Account/ProcessPayment', payment(card, key), token),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(a.body.paidPlanId).toBe('Basic');
    expect(b.body).toEqual(a.body);
    expect(await providerState(email)).toEqual({
      customers: 1,
      subscriptions: 1,
      invoices: 1,
      locks: 0,
    });
  });

  it('lets only one of two different checkouts (two tabs) through', async () => {
    const { email, token } = await signUp(one, 'two-tabs');
    const [cardA, cardB] = [
      await cardToken(one, testCards.succeeds),
      await cardToken(two, testCards.succeeds),
    ];
    const answers = await Promise.all([
      one.post('/api/Account/ProcessPayment', payment(cardA, crypto.randomUUID()), token),
      two.post('/api/Account/ProcessPayment', payment(cardB, crypto.randomUUID()), token),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    expect(refused?.body.message).toBe(billingMessages.alreadySubscribed);
    expect(await providerState(email)).toMatchObject({ customers: 1, subscriptions: 1, locks: 0 });
  });

  it('takes over the lock of a server that died holding it once its lease has ended', async () => {
    const { email, token } = await signUp(one, 'dead-holder');
    const { db } = first.database;
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('billing_user_locks')
      .values({ user_id: user.id, holder: 'dead-process', expires_at: new Date(Date.now() - 1000) })
      .execute();
    const card = await cardToken(two, testCards.succeeds);
    const paid = await two.post(
      '/api/Account/ProcessPayment',
      payment(card, crypto.randomUUID()),
      token,
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await providerState(email)).toMatchObject({ subscriptions: 1, locks: 0 });
  });
});
