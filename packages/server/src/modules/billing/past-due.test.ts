import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localHourToUtc,
  scanMessages,
  scheduleSkipReasons,
  type Scan,
  type ScheduledScan,
} from '@linkaudit/core';
import { fastEngineOptions, startTestSite, type TestSite } from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { endUnfinishedScans, signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { BillingClock } from './billing-clock.js';
import { testCards } from './test-cards.js';

/**
 * Issue 36: a past-due account (its renewal failed) is held on /pricing by the web app; the API
 * refuses its new scans and schedule runs the same way, until the card is put right.
 */
describe.each(testDialects())('a past-due account (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite({ '/': 'home' });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await endUnfinishedScans(server.database);
    await server.stop();
    await site.close();
  });

  async function cardToken(number: string): Promise<string> {
    const answer = await api.post('/api/billing/sandbox/tokens', {
      number,
      expMonth: 12,
      expYear: 2099,
      cvc: '123',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return String(answer.body.id);
  }

  const newScan = (token: string) =>
    api.post('/api/ScanApi/', { scanSettings: { url: site.url('/'), scanDepth: 1 } }, token);

  it('refuses new scans and schedule runs with 403 and the Pricing message, until the card is fixed', async () => {
    const { token } = await signUp(api, 'past-due');
    const paid = await api.post(
      '/api/Account/ProcessPayment',
      {
        plan: 'Premium',
        cardToken: await cardToken(testCards.failsAtRenewal),
        billingUser: { name: 'Ada Payer', email: 'billing@example.com' },
        voucher: null,
        idempotencyKey: null,
      },
      token,
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const scheduled = await api.post(
      '/api/ScanApi/ScheduleScan',
      {
        scanSettings: { url: site.url('/'), scanDepth: 1 },
        scheduleSettings: {
          frequency: 2,
          dailyHour: localHourToUtc('09:00', 0),
          weeklyDay: 1,
          monthlyDay: 1,
          userTimeZoneOffset: 0,
        },
      },
      token,
    );
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const schedule = scheduled.body as unknown as ScheduledScan;

    // The trial ends and the renewal's charge fails: the account is past due.
    await new BillingClock(server.database.db, server.clock).advanceDays(8);
    await server.app.billingRenewals.tick();
    const info = await api.get('/api/account/userInfo', token);
    expect(info.body).toMatchObject({ paymentFailed: true });

    const refused = await newScan(token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      message: scanMessages.paymentFailed,
      exceptionMessage: scanMessages.paymentFailed,
    });
    const runNow = await api.post(`/api/ScanApi/ScheduledRuns/${schedule.id}`, {}, token);
    expect(runNow.status).toBe(403);
    expect(runNow.body).toMatchObject({ exceptionMessage: scanMessages.paymentFailed });

    await server.database.db
      .updateTable('schedules')
      .set({ next_run_at: new Date(server.clock.now().getTime() - 1000) })
      .where('id', '=', schedule.id)
      .execute();
    expect(await server.app.scheduler.tick()).toContainEqual({
      scheduleId: schedule.id,
      kind: 'skipped',
      reason: scheduleSkipReasons.paymentFailed,
    });
    const scans = (await api.get('/api/ScanApi/Get', token)).body as Scan[];
    expect(scans).toEqual([]);

    const fixed = await api.post(
      '/api/Account/UpdatePaymentDetails',
      { cardToken: await cardToken(testCards.succeeds), idempotencyKey: 'past-due-fix' },
      token,
    );
    expect(fixed.body).toMatchObject({ paymentFailed: false });
    const accepted = await newScan(token);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });
});
