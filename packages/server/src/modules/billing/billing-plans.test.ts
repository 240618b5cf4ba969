import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, ScanStatus, ScheduleStatus, type ScheduledScan } from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { insertFinishedScan } from '../../test-support/scan-rows.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { BillingClock } from './billing-clock.js';
import { runBillingCommand, runVoucherCommand } from './billing-command.js';
import { testCards } from './test-cards.js';

/** Plans as billing sets them: limits in one place (resolveScan), credit per billing period. */
describe.each(testDialects())('billing and plan limits (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite({ '/': 'hello' });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', ACCESS_TOKEN_TTL: '3650d' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  async function subscribe(plan: string) {
    const user = await signUp(api, 'billing');
    const card = await api.post('/api/billing/sandbox/tokens', {
      number: testCards.succeeds,
      expMonth: 1,
      expYear: 2099,
      cvc: '321',
    });
    const paid = await api.post(
      '/api/Account/ProcessPayment',
      {
        plan,
        cardToken: card.body.id,
        billingUser: { name: 'Ada', email: user.email },
      },
      user.token,
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    return user;
  }

  async function userId(email: string): Promise<string> {
    const row = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function advanceDays(days: number) {
    await new BillingClock(server.database.db, server.clock).advanceDays(days);
    await server.app.billingRenewals.tick();
  }

  async function schedules(token: string): Promise<ScheduledScan[]> {
    return (await api.get('/api/ScanApi/ScheduleScan', token)).body as ScheduledScan[];
  }

  it('pauses the schedules beyond a smaller plan, and all of them on Free, deleting none', async () => {
    const { token } = await subscribe('Premium');
    const allowance = plans.Basic.schedules ?? 0;
    for (let index = 0; index <= allowance; index++) {
      const created = await api.post(
        '/api/ScanApi/ScheduleScan',
        { scanSettings: { url: site.url('/'), scanDepth: 1 } },
        token,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    const changed = await api.post(
      '/api/Account/ChangeSubscription?newPlan=Basic',
      undefined,
      token,
    );
    expect(changed.body.paidPlanId).toBe('Basic');
    const afterChange = await schedules(token);
    expect(afterChange).toHaveLength(allowance + 1);
    expect(afterChange.filter((s) => s.status === ScheduleStatus.Paused)).toHaveLength(1);

    await api.post('/api/Account/CancelSubscription', undefined, token);
    expect((await schedules(token)).filter((s) => s.status === ScheduleStatus.Paused)).toHaveLength(
      1,
    );
    await advanceDays(40);
    const onFree = await schedules(token);
    expect(onFree).toHaveLength(allowance + 1);
    expect(onFree.every((s) => s.status === ScheduleStatus.Paused)).toBe(true);
  });

  it("answers 13 with the true credit of the plan's period, and resets it when a period starts", async () => {
    const { token, email } = await subscribe('Basic');
    const id = await userId(email);
    await insertFinishedScan(server.database.db, {
      id: randomUUID(),
      userId: id,
      url: site.url('/'),
      sourceScheduleId: null,
      completedAt: new Date(),
      uniqueLinks: plans.Basic.urlsPerMonth - 1000,
    });
    const request = {
      scanSettings: { url: site.url('/'), scanLimitOption: 1, maxLinkAmount: 5000 },
    };
    const low = await api.post('/api/ScanApi/', request, token);
    expect(low.body).toMatchObject({ status: ScanStatus.LowCreditWarning, remainingUrls: 1000 });

    // The trial ends: a new (paid) period starts and the month's credit is whole again.
    await advanceDays(8);
    const fresh = await api.post('/api/ScanApi/', request, token);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.status).toBe(ScanStatus.Queued);
  });

  it('lets the operator create vouchers and move the sandbox clock from the command line', async () => {
    const db = server.database.db;
    const code = `Cli${dialect}${Date.now()}`;
    expect(await runVoucherCommand(db, ['create', code, 'percent', '20', 'max-uses=3'])).toBe(
      `Voucher ${code} created (20 % off).`,
    );
    await expect(runVoucherCommand(db, ['create', code, 'percent', '20'])).rejects.toThrow(
      'already exists',
    );
    await expect(runVoucherCommand(db, ['create', 'X', 'percent', '120'])).rejects.toThrow(
      'from 1 to 100',
    );
    await expect(runVoucherCommand(db, ['create', 'X', 'bogus', '1'])).rejects.toThrow('usage');
    expect(await runVoucherCommand(db, ['list'])).toContain(`${code}  20 % off  0/3 used`);
    const user = await signUp(api, 'coupon');
    const coupon = await api.get(`/api/Account/ValidateCoupon?coupon=${code}`, user.token);
    expect(coupon.body).toEqual({ type: 2, value: 20 });

    const clock = new BillingClock(db, server.clock);
    const before = (await clock.now()).getTime();
    expect(await runBillingCommand(db, ['advance-clock', '3'])).toMatch(/3 days later/);
    const moved = (await clock.now()).getTime() - before;
    expect(moved).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(moved).toBeLessThan(3 * 86_400_000 + 60_000);
    await expect(runBillingCommand(db, ['advance-clock', '-1'])).rejects.toThrow('usage');
  });
});
