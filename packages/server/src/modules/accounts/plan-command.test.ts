// `linkaudit-server plan set` (issue 37): the operator's plan grant forgets a subscription that
// ended or never paid, so a Premium user no longer shows "incomplete_expired"; a live one stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openTestDatabase,
  testDialects,
  type TestDatabase,
} from '../../test-support/test-server.js';
import { findUserByEmail, insertUser } from './accounts.repository.js';
import { runPlanCommand } from './plan-command.js';

describe.each(testDialects())('plan set (%s)', (dialect) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase(dialect);
  });
  afterAll(() => test.drop());

  async function userWithSubscription(email: string, status: string) {
    const db = test.database.db;
    const id = crypto.randomUUID();
    const now = new Date();
    await insertUser(db, {
      id,
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      language: 'en',
      emailConfirmedAt: now,
      createdAt: now,
    });
    await db
      .insertInto('billing_accounts')
      .values({
        user_id: id,
        customer_id: `cus_${id}`,
        subscription_id: `sub_${id}`,
        plan: 'Premium',
        status,
        trial_end: null,
        current_period_start: null,
        current_period_end: null,
        canceled_at: null,
        voucher: null,
        payment_key: null,
        credit_period_start: null,
        updated_at: now,
      })
      .execute();
    return id;
  }

  it('forgets an expired checkout and keeps a live subscription', async () => {
    const db = test.database.db;
    const expired = await userWithSubscription('expired@example.com', 'incomplete_expired');
    const live = await userWithSubscription('live@example.com', 'active');
    await runPlanCommand(db, ['set', 'expired@example.com', 'Premium']);
    await runPlanCommand(db, ['set', 'live@example.com', 'Premium']);
    expect((await findUserByEmail(db, 'expired@example.com'))?.paidPlanId).toBe('Premium');
    const accounts = await db
      .selectFrom('billing_accounts')
      .select(['user_id', 'status'])
      .execute();
    expect(accounts.find((row) => row.user_id === expired)).toBeUndefined();
    expect(accounts.find((row) => row.user_id === live)?.status).toBe('active');
  });
});
