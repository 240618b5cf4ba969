import { describe, expect, it } from 'vitest';
import { TestClock, openTestDatabase, testDialects } from '../../test-support/test-server.js';
import { BillingClock } from './billing-clock.js';
import { describeGatewayContract } from '../../test-support/payment-gateway-contract.js';
import { SandboxGateway } from './sandbox-gateway.js';
import { testCards } from './test-cards.js';

const expiry = { expMonth: 12, expYear: 2099, cvc: '123' };

for (const dialect of testDialects()) {
  describeGatewayContract(`sandbox (${dialect})`, async () => {
    const database = await openTestDatabase(dialect);
    const clock = new BillingClock(database.database.db, new TestClock());
    const gateway = new SandboxGateway(database.database.db, clock);
    return {
      gateway,
      clock: {
        async advanceDays(days) {
          await clock.advanceDays(days);
          await gateway.runDue();
        },
      },
      cardToken: async (number) => (await gateway.createCardToken({ number, ...expiry })).id,
      onEvent: (listener) =>
        gateway.onEvent((event) => {
          listener(event);
          return Promise.resolve();
        }),
      close: () => database.drop(),
    };
  });
}

describe.each(testDialects())('sandbox gateway with several schedulers (%s)', (dialect) => {
  it('renews each subscription exactly once and delivers each event once', async () => {
    const database = await openTestDatabase(dialect);
    try {
      const db = database.database.db;
      const base = new TestClock();
      // Two scheduler processes: each its own gateway object on the same database.
      const first = new SandboxGateway(db, new BillingClock(db, base));
      const second = new SandboxGateway(db, new BillingClock(db, base));
      const delivered: string[] = [];
      for (const gateway of [first, second]) {
        gateway.onEvent((event) => {
          delivered.push(event.id);
          return Promise.resolve();
        });
      }
      const subscriptions: string[] = [];
      for (let index = 0; index < 5; index++) {
        const customer = await first.createCustomer({
          userId: `u${index}`,
          email: `u${index}@example.com`,
          name: 'U',
        });
        const token = await first.createCardToken({ number: testCards.succeeds, ...expiry });
        await first.attachCard(customer.id, token.id, `card-${index}`);
        const subscription = await first.createSubscription({
          customerId: customer.id,
          plan: 'Basic',
          trialDays: 1,
          discount: null,
          idempotencyKey: `sub-${index}`,
        });
        subscriptions.push(subscription.id);
      }
      await new BillingClock(db, base).advanceDays(2);
      const [a, b] = await Promise.all([first.runDue(), second.runDue()]);
      expect(a + b).toBe(5);
      for (const id of subscriptions) {
        const customerId = (await first.retrieveSubscription(id)).customerId;
        const charged = (await first.listInvoices(customerId)).filter(
          (invoice) => invoice.amountPaidCents > 0,
        );
        expect(charged).toHaveLength(1);
      }
      expect(new Set(delivered).size).toBe(delivered.length);
    } finally {
      await database.drop();
    }
  });
});
