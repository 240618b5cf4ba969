import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { billingMessages } from './billing.messages.js';

/**
 * ValidateCoupon without sign-in (join-and-pay asks before the account exists), limited per
 * client address so that voucher codes cannot be guessed in bulk.
 */
describe.each(testDialects())('ValidateCoupon for a visitor (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_RATE_LIMIT: '3' });
    api = apiClient(server.baseUrl);
    await server.app.billing.createVoucher({ code: 'Visitor10', type: 2, value: 10 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a visitor, refuses a wrong code, and stops a guesser', async () => {
    const known = await api.get('/api/Account/ValidateCoupon?coupon=Visitor10');
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ type: 2, value: 10 });
    const wrongCase = await api.get('/api/Account/ValidateCoupon?coupon=visitor10');
    expect(wrongCase.status).toBe(404);
    expect(wrongCase.body.message).toBe(billingMessages.invalidVoucher);
    // A check takes no use of the voucher.
    const row = await server.database.db
      .selectFrom('vouchers')
      .select('uses')
      .where('code', '=', 'Visitor10')
      .executeTakeFirstOrThrow();
    expect(row.uses).toBe(0);
    await api.get('/api/Account/ValidateCoupon?coupon=Guess3');
    const fourth = await api.get('/api/Account/ValidateCoupon?coupon=Guess4');
    expect(fourth.status).toBe(429);
  });
});
