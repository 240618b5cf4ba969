import { describeSchedule } from '@linkaudit/core/schedule-description';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  localHourToUtc,
  nextRunAfter,
  ScanStatus,
  scheduleMessages,
  scheduleSkipReasons,
  type ScheduledScan,
} from '@linkaudit/core';
import {
  fastEngineOptions,
  linksPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import {
  endUnfinishedScans,
  sendDelete,
  signUp,
  waitForScan,
} from '../../test-support/scan-helpers.js';
import { insertFinishedScan } from '../../test-support/scan-rows.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';
import type { FiringOutcome } from './scheduler.js';

const day = 24 * 3600 * 1000;
const week = 7 * day;

describe.each(testDialects())('scheduled scans (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    site = await startTestSite(
      {
        '/': linksPage(['/a', '/b', '/c']),
        '/a': 'a',
        '/b': 'b',
        '/slow/': linksPage(['/slow/1']),
        '/slow/1': { delayMs: 1500, body: 'slow' },
      },
      { fallback: { status: 404, body: 'Not Found' } },
    );
    smtp = await startSmtpCapture();
    server = await startTestServer(
      dialect,
      // Tokens outlive the weeks these tests move the clock ahead.
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1', SMTP_URL: smtp.url, ACCESS_TOKEN_TTL: '3650d' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  // Leases run on real time: a run left going would keep a worker from the next test's runs.
  afterEach(() => endUnfinishedScans(server.database));
  afterAll(async () => {
    await server.stop();
    await site.close();
    await smtp.stop();
  });

  async function paidUser(plan = 'Basic') {
    const user = await signUp(api, 'scheduler');
    await runPlanCommand(server.database.db, ['set', user.email, plan]);
    await smtp.nextMailTo(user.email); // the confirmation mail of signing up
    return user;
  }

  /** Weekly on Monday at 09:00 in UTC+8, as the browser sends it. */
  const mondayMorningInShanghai = {
    frequency: 2,
    dailyHour: localHourToUtc('09:00', -480),
    weeklyDay: 1,
    monthlyDay: 1,
    userTimeZoneOffset: -480,
  };

  async function createSchedule(token: string, extra: Record<string, unknown> = {}) {
    const answer = await api.post(
      '/api/ScanApi/ScheduleScan',
      {
        scanSettings: { url: site.url('/'), scanDepth: 3 },
        scheduleSettings: mondayMorningInShanghai,
        ...extra,
      },
      token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as ScheduledScan;
  }

  async function schedules(token: string, language = 'en'): Promise<ScheduledScan[]> {
    const answer = await api.get('/api/ScanApi/ScheduleScan', token, {
      'accept-language': language,
    });
    expect(answer.status).toBe(200);
    const list: ScheduledScan[] = answer.body;
    return list;
  }

  /**
   * Marks a schedule due without moving the clock: moving it while a scan runs would expire the
   * scan's lease and start it a second time.
   */
  async function makeDue(scheduleId: string) {
    await server.database.db
      .updateTable('schedules')
      .set({ next_run_at: new Date(server.clock.now().getTime() - 1000) })
      .where('id', '=', scheduleId)
      .execute();
    return server.app.scheduler.tick();
  }

  /** Moves the clock past the schedule's next run and lets the scheduler look (no scan running). */
  async function fireDue(schedule: { nextRun: string | null }) {
    const due = new Date(schedule.nextRun ?? '').getTime();
    const ahead = due - server.clock.now().getTime() + 1000;
    if (ahead > 0) server.clock.advance(ahead);
    return server.app.scheduler.tick();
  }

  it('refuses schedules to Free users with the upgrade text', async () => {
    const { token } = await signUp(api, 'free');
    const direct = await api.post(
      '/api/ScanApi/ScheduleScan',
      { scanSettings: { url: site.url('/') }, scheduleSettings: {} },
      token,
    );
    expect(direct.status).toBe(403);
    expect(direct.body).toMatchObject({ exceptionMessage: scheduleMessages.paidOnly });
    const submitted = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') }, enableSchedule: true, saveScheduleOnly: true },
      token,
    );
    expect(submitted.status).toBe(403);
    expect(await schedules(token)).toEqual([]);
  });

  it('saves a schedule only (14), describes it in local time in English and Chinese', async () => {
    const { token } = await paidUser();
    const before = server.clock.now();
    const answer = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: { url: site.url('/'), scanDepth: 3 },
        enableSchedule: true,
        saveScheduleOnly: true,
        scheduleSettings: mondayMorningInShanghai,
      },
      token,
    );
    expect(answer.body).toMatchObject({
      status: ScanStatus.ScheduledScanCreated,
      message: 'Scheduled scan created',
    });
    const scans = await api.get('/api/ScanApi/Get', token);
    expect(scans.body).toEqual([]);

    const [schedule] = await schedules(token);
    expect(schedule).toMatchObject({
      id: answer.body.scheduleId,
      url: site.url('/'),
      status: ScanStatus.Queued,
      enabled: true,
      scheduleCronExpression: '0 1 * * 1',
      describedCronExpression: 'At 09:00, only on Monday',
      runCount: 0,
      lastRun: null,
      notifyOnChange: true,
      scanType: 3,
    });
    const expectedNext = nextRunAfter(mondayMorningInShanghai, before);
    expect(new Date(schedule?.nextRun ?? '').getTime()).toBe(expectedNext.getTime());
    expect(new Date(expectedNext).getUTCDay()).toBe(1);
    expect(new Date(expectedNext).getUTCHours()).toBe(1);

    const [chinese] = await schedules(token, 'zh-CN,zh;q=0.9');
    expect(chinese?.describedCronExpression).toBe(
      describeSchedule(mondayMorningInShanghai, 'zh-CN'),
    );
    expect(chinese?.describedCronExpression).toBe('在09:00，仅星期一');
  });

  it('a scan now plus a schedule: the scan is the first run', async () => {
    const { token } = await paidUser();
    const answer = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: { url: site.url('/'), scanDepth: 3 },
        enableSchedule: true,
        scheduleSettings: mondayMorningInShanghai,
        notifyOnChange: false,
      },
      token,
    );
    expect(answer.body).toMatchObject({ status: ScanStatus.Queued });
    expect(answer.body.scheduleId).toEqual(expect.any(String));
    expect(answer.body.sourceScheduleId).toBe(answer.body.scheduleId);
    const [schedule] = await schedules(token);
    expect(schedule).toMatchObject({
      runCount: 1,
      lastScanId: answer.body.id,
      notifyOnChange: false,
    });
    await waitForScan(api, token, String(answer.body.id), (scan) => scan.status === 1);
  });

  it('pauses (7), stays quiet while paused, resumes (6), updates and deletes', async () => {
    const { token } = await paidUser();
    const created = await createSchedule(token);

    const paused = await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.id, action: 'pause' },
      token,
    );
    expect(paused.body).toMatchObject({ status: ScanStatus.Paused, enabled: false, nextRun: null });
    server.clock.advance(8 * day);
    const outcomes = await server.app.scheduler.tick();
    expect(outcomes.filter((outcome) => outcome.scheduleId === created.id)).toEqual([]);

    // SPEC §4's reading: posting status 6 resumes it.
    const resumed = await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.id, status: ScanStatus.Queued },
      token,
    );
    expect(resumed.body).toMatchObject({ status: ScanStatus.Queued, enabled: true });
    expect(new Date(String(resumed.body.nextRun)).getTime()).toBeGreaterThan(
      server.clock.now().getTime(),
    );

    const updated = await api.post(
      '/api/ScanApi/ScheduleScan',
      {
        id: created.id,
        action: 'update',
        scheduleSettings: { frequency: 1, dailyHour: '07:30', userTimeZoneOffset: 0 },
        notifyOnChange: false,
        url: site.url('/b'),
      },
      token,
    );
    expect(updated.body).toMatchObject({
      scheduleCronExpression: '30 7 * * *',
      describedCronExpression: 'At 07:30',
      notifyOnChange: false,
      url: site.url('/b'),
    });
    const next = new Date(String(updated.body.nextRun));
    expect(next.getUTCHours() * 60 + next.getUTCMinutes()).toBe(7 * 60 + 30);
    expect(next.getTime() - server.clock.now().getTime()).toBeLessThanOrEqual(day);

    const someoneElse = await paidUser();
    const stolen = await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.id, action: 'delete' },
      someoneElse.token,
    );
    expect(stolen.status).toBe(404);

    const deleted = await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.id, action: 'delete' },
      token,
    );
    expect(deleted.status).toBe(200);
    expect(await schedules(token)).toEqual([]);
  });

  it("keeps to the plan's allowance (Basic: 5)", async () => {
    const { token } = await paidUser('Basic');
    for (let index = 0; index < 5; index++) await createSchedule(token);
    const sixth = await api.post(
      '/api/ScanApi/ScheduleScan',
      { scanSettings: { url: site.url('/') }, scheduleSettings: {} },
      token,
    );
    expect(sixth.status).toBe(403);
    expect(sixth.body).toMatchObject({ exceptionMessage: scheduleMessages.allowance(5) });
  });

  it('fires a due schedule exactly once and catches up missed weeks with one run', async () => {
    const { token } = await paidUser();
    const created = await createSchedule(token);
    const fired = await fireDue(created);
    const mine = fired.filter((outcome) => outcome.scheduleId === created.id);
    expect(mine).toEqual([{ scheduleId: created.id, kind: 'queued', scanId: expect.any(String) }]);
    expect(await server.app.scheduler.tick()).not.toContainEqual(
      expect.objectContaining({ scheduleId: created.id }),
    );
    const scanId = mine[0]?.kind === 'queued' ? mine[0].scanId : '';
    // The run may queue behind earlier tests' scans: this checks that it goes ahead, not how soon.
    await waitForScan(api, token, scanId, (scan) => scan.status === ScanStatus.Complete, 60_000);

    const [afterFirst] = await schedules(token);
    expect(afterFirst).toMatchObject({ runCount: 1, lastScanId: scanId });
    const nextRun = new Date(afterFirst?.nextRun ?? '').getTime();
    expect(nextRun - new Date(created.nextRun ?? '').getTime()).toBe(week);

    // The server was "down" for three weeks: one catch-up run, then the clock is in the future.
    server.clock.advance(3 * week);
    const caughtUp = (await server.app.scheduler.tick()).filter(
      (outcome) => outcome.scheduleId === created.id,
    );
    expect(caughtUp).toHaveLength(1);
    expect(await server.app.scheduler.tick()).not.toContainEqual(
      expect.objectContaining({ scheduleId: created.id }),
    );
    const [afterCatchUp] = await schedules(token);
    expect(afterCatchUp?.runCount).toBe(2);
    expect(new Date(afterCatchUp?.nextRun ?? '').getTime()).toBeGreaterThan(
      server.clock.now().getTime(),
    );
  }, 90_000);

  it('fires once when two schedulers race for the same due runs', async () => {
    const { token } = await paidUser('Enterprise');
    const created = await Promise.all(
      Array.from({ length: 8 }, () =>
        createSchedule(token, { scanSettings: { url: site.url('/a'), scanDepth: 1 } }),
      ),
    );
    const latest = Math.max(...created.map((item) => new Date(item.nextRun ?? '').getTime()));
    server.clock.advance(latest - server.clock.now().getTime() + 1000);
    const [first, second] = await Promise.all([
      server.app.scheduler.tick(),
      server.app.scheduler.tick(),
    ]);
    const ids = new Set(created.map((item) => item.id));
    const fired = [...first, ...second].filter((outcome) => ids.has(outcome.scheduleId));
    expect(fired.map((outcome) => outcome.scheduleId).sort()).toEqual([...ids].sort());
    for (const schedule of await schedules(token)) expect(schedule.runCount).toBe(1);
    for (const outcome of fired) {
      const scanId = outcome.kind === 'queued' ? outcome.scanId : '';
      await waitForScan(api, token, scanId, (scan) => scan.status === 1, 60_000);
    }
  }, 90_000);

  it('skips a run while the previous one is still going, and says why', async () => {
    const { token } = await paidUser();
    const created = await createSchedule(token, {
      scanSettings: { url: site.url('/slow/'), scanDepth: 2 },
    });
    const mine = (outcomes: FiringOutcome[]) =>
      outcomes.find((outcome) => outcome.scheduleId === created.id);
    const first = mine(await makeDue(created.id));
    expect(first).toMatchObject({ kind: 'queued' });
    const second = mine(await makeDue(created.id));
    expect(second).toEqual({
      scheduleId: created.id,
      kind: 'skipped',
      reason: scheduleSkipReasons.stillRunning,
    });
    const skipped = (await schedules(token)).find((item) => item.id === created.id);
    expect(skipped).toMatchObject({
      runCount: 1,
      skippedRuns: 1,
      lastSkipReason: scheduleSkipReasons.stillRunning,
    });

    const refused = await api.post(`/api/ScanApi/ScheduledRuns/${created.id}`, {}, token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ exceptionMessage: scheduleMessages.stillRunning });
    const scanId = first?.kind === 'queued' ? first.scanId : '';
    await waitForScan(api, token, scanId, (scan) => scan.status === ScanStatus.Complete);
  });

  it('skips runs once the plan no longer has schedules', async () => {
    const { token, email } = await paidUser();
    const created = await createSchedule(token);
    await runPlanCommand(server.database.db, ['set', email, 'Free']);
    const outcomes = await fireDue(created);
    expect(outcomes).toContainEqual({
      scheduleId: created.id,
      kind: 'skipped',
      reason: scheduleSkipReasons.planHasNoSchedules,
    });
  });

  it("skips runs the month's URL credit cannot pay for (12, then 13)", async () => {
    const { token } = await paidUser('Basic');
    const created = await createSchedule(token, {
      scanSettings: { url: site.url('/'), scanLimitOption: 1, maxLinkAmount: 5000 },
    });
    const owner = await ownerOf(created.id);
    const usage = (uniqueLinks: number) =>
      recordFinishedScan({
        userId: owner,
        sourceScheduleId: null,
        completedAt: server.clock.now(),
        uniqueLinks,
      });
    const mine = (outcomes: FiringOutcome[]) =>
      outcomes.find((outcome) => outcome.scheduleId === created.id);

    // Basic: 200,000 URLs a month. 197,000 used leaves 3,000, less than the scan's 5,000 (13).
    await usage(197_000);
    expect(mine(await makeDue(created.id))).toEqual({
      scheduleId: created.id,
      kind: 'skipped',
      reason: scheduleSkipReasons.lowCredit,
    });
    // All used (12).
    await usage(3_000);
    expect(mine(await makeDue(created.id))).toEqual({
      scheduleId: created.id,
      kind: 'skipped',
      reason: scheduleSkipReasons.monthlyLimitReached,
    });
    const [skipped] = (await schedules(token)).filter((item) => item.id === created.id);
    expect(skipped).toMatchObject({ runCount: 0, skippedRuns: 2 });
    // Credit back (that month's scans removed from the count): the run goes ahead.
    await server.database.db.deleteFrom('scans').where('user_id', '=', owner).execute();
    expect(mine(await makeDue(created.id))).toMatchObject({ kind: 'queued' });
    const [ran] = (await schedules(token)).filter((item) => item.id === created.id);
    // The run may queue behind scans earlier tests left running: what counts is that it runs.
    await waitForScan(api, token, String(ran?.lastScanId), (scan) => scan.status === 1, 60_000);
  }, 90_000);

  it('runs now and keeps the history of finished runs (bad links, totals, duration)', async () => {
    const { token } = await paidUser();
    const created = await createSchedule(token);
    const ran = await api.post(`/api/ScanApi/ScheduledRuns/${created.id}`, {}, token);
    expect(ran.body).toMatchObject({ status: ScanStatus.Queued, sourceScheduleId: created.id });
    const scan = await waitForScan(
      api,
      token,
      String(ran.body.id),
      (item) => item.status === ScanStatus.Complete,
    );
    const history = await api.get(`/api/ScanApi/ScheduledRuns/${created.id}`, token);
    expect(history.body).toEqual([
      expect.objectContaining({
        scanId: scan.id,
        status: ScanStatus.Complete,
        badLinks: 1,
        totalLinks: scan.totalLinks,
        duration: scan.duration,
        // The first run has no run before it to compare with (issue 27).
        newProblems: null,
      }),
    ]);
    const stranger = await paidUser();
    expect((await api.get(`/api/ScanApi/ScheduledRuns/${created.id}`, stranger.token)).status).toBe(
      404,
    );
  });

  it('keeps the newest 100 finished runs in the history, oldest first', async () => {
    const { token } = await paidUser();
    const created = await createSchedule(token);
    const owner = await ownerOf(created.id);
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let index = 0; index < 105; index++) {
      await recordFinishedScan({
        id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        userId: owner,
        sourceScheduleId: created.id,
        completedAt: new Date(start + index * day + 60_000),
      });
    }
    const history = await api.get(`/api/ScanApi/ScheduledRuns/${created.id}`, token);
    const runs = history.body as unknown as Array<{ scanId: string }>;
    expect(runs).toHaveLength(100);
    expect(runs[0]?.scanId).toMatch(/000000000005$/);
    expect(runs[99]?.scanId).toMatch(/000000000104$/);
  });

  async function ownerOf(scheduleId: string): Promise<string> {
    const row = await server.database.db
      .selectFrom('schedules')
      .select('user_id')
      .where('id', '=', scheduleId)
      .executeTakeFirstOrThrow();
    return row.user_id;
  }

  /** A finished scan of the test site, written straight to the database (see scan-rows.ts). */
  async function recordFinishedScan(scan: {
    id?: string;
    userId: string;
    sourceScheduleId: string | null;
    completedAt: Date;
    uniqueLinks?: number;
  }) {
    await insertFinishedScan(server.database.db, {
      id: scan.id ?? crypto.randomUUID(),
      userId: scan.userId,
      url: site.url('/'),
      sourceScheduleId: scan.sourceScheduleId,
      completedAt: scan.completedAt,
      uniqueLinks: scan.uniqueLinks ?? 0,
    });
  }

  it('mails the owner when broken links appear or disappear, unless turned off', async () => {
    const { token, email } = await paidUser();
    site.routes['/mail/'] = linksPage(['/mail/x', '/mail/y']);
    site.routes['/mail/x'] = 'x';
    site.routes['/mail/y'] = 'y';
    const created = await createSchedule(token, {
      scanSettings: { url: site.url('/mail/'), scanDepth: 2 },
    });
    const runOnce = async () => {
      const ran = await api.post(`/api/ScanApi/ScheduledRuns/${created.id}`, {}, token);
      expect(ran.status, JSON.stringify(ran.body)).toBe(200);
      await waitForScan(api, token, String(ran.body.id), (scan) => scan.status === 1);
      return String(ran.body.id);
    };
    await runOnce();
    // /mail/x breaks: a mail names it and links to the report.
    site.routes['/mail/x'] = { status: 404, body: 'gone' };
    const broken = await runOnce();
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe(`Broken links changed on ${site.url('/mail/')}`);
    expect(mail.text).toContain('1 new broken link:');
    expect(mail.text).toContain(site.url('/mail/x'));
    expect(mail.text).toContain(`${server.baseUrl}/report/${broken}`);

    // Turned off: /mail/x works again, no mail; turned on: /mail/y breaks, and that is the next mail.
    await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.id, action: 'update', notifyOnChange: false },
      token,
    );
    site.routes['/mail/x'] = 'x';
    await runOnce();
    await api.post(
      '/api/ScanApi/ScheduleScan',
      { id: created.id, action: 'update', notifyOnChange: true },
      token,
    );
    site.routes['/mail/y'] = { status: 404, body: 'gone' };
    const yBroken = await runOnce();
    const next = await smtp.nextMailTo(email);
    expect(next.text).toContain(site.url('/mail/y'));
    expect(next.text).not.toContain(site.url('/mail/x'));
    const changeMails = () =>
      smtp.mails.filter(
        (item) => item.to.includes(email.toLowerCase()) && item.subject.startsWith('Broken links'),
      );
    expect(changeMails()).toHaveLength(2);

    // Ignored (issue 27 triage), /mail/y coming and going is no change worth a mail; /mail/x
    // breaking is, and the mail counts the broken links without the ignored one.
    const ignored = await api.send(
      'PUT',
      `/api/report/triage/${yBroken}`,
      { kind: 'link', target: site.url('/mail/y'), mark: 'ignored' },
      token,
    );
    expect(ignored.status, JSON.stringify(ignored.body)).toBe(200);
    // The history chart counts that run's bad links without it, as the scan list does.
    const history = await api.get(`/api/ScanApi/ScheduledRuns/${created.id}`, token);
    const run = (history.body as Array<{ scanId: string; badLinks: number }>).find(
      (entry) => entry.scanId === yBroken,
    );
    expect(run?.badLinks).toBe(0);
    site.routes['/mail/y'] = 'y';
    await runOnce();
    site.routes['/mail/y'] = { status: 404, body: 'gone' };
    await runOnce();
    site.routes['/mail/x'] = { status: 404, body: 'gone' };
    await runOnce();
    const last = await smtp.nextMailTo(email);
    expect(last.text).toContain(site.url('/mail/x'));
    expect(last.text).not.toContain(site.url('/mail/y'));
    expect(changeMails()).toHaveLength(3);
  });
});

describe.each(testDialects())('a paused schedule holds its queued run (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    // No workers: a queued run stays queued while the test pauses and resumes its schedule.
    server = await startTestServer(dialect, {
      WORKER_CONCURRENCY: '0',
      LINKAUDIT_ALLOWED_HOSTS: 'example.com',
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(() => server.stop());

  it('6 → 7 on pause, 7 → 6 on resume, and a held run can be cancelled', async () => {
    const { email, token } = await signUp(api, 'holder');
    await runPlanCommand(server.database.db, ['set', email, 'Premium']);
    const submitted = await api.post(
      '/api/ScanApi/',
      {
        scanSettings: { url: 'http://example.com/' },
        enableSchedule: true,
        scheduleSettings: {},
      },
      token,
    );
    expect(submitted.body).toMatchObject({ status: ScanStatus.Queued, queuePosition: 1 });
    const scanId = String(submitted.body.id);
    const scheduleId = String(submitted.body.scheduleId);
    const scanStatus = async () => {
      const list = await api.get('/api/ScanApi/Get', token);
      return (list.body as Array<{ id: string; status: number; queuePosition: number | null }>)
        .filter((scan) => scan.id === scanId)
        .map(({ status, queuePosition }) => ({ status, queuePosition }))[0];
    };

    await api.post('/api/ScanApi/ScheduleScan', { id: scheduleId, action: 'pause' }, token);
    expect(await scanStatus()).toEqual({ status: ScanStatus.Paused, queuePosition: null });
    await api.post('/api/ScanApi/ScheduleScan', { id: scheduleId, action: 'resume' }, token);
    expect(await scanStatus()).toEqual({ status: ScanStatus.Queued, queuePosition: 1 });

    await api.post('/api/ScanApi/ScheduleScan', { id: scheduleId, status: 7 }, token);
    const cancelled = await sendDelete(server.baseUrl, `/api/ScanApi/?id=${scanId}`, token);
    expect(cancelled.body).toMatchObject({ status: ScanStatus.Cancelled });
  });
});
