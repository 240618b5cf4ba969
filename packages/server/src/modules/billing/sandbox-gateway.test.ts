import { TestClock, openTestDatabase, testDialects } from '../../test-support/test-server.js';
import { BillingClock } from './billing-clock.js';
import { describeGatewayContract } from './gateway-contract.js';
import { SandboxGateway } from './sandbox-gateway.js';

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
