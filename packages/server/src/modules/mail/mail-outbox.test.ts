// Issue 36: mail lives in the database, not in a promise. With the SMTP server down for a while
// and the app restarted in between, every mail written meanwhile arrives exactly once when the
// server is back; the operator's list shows each with its state, attempts and last error.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AdminOutboxPage } from '@linkaudit/core';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import {
  freePort,
  openTestDatabase,
  testDialects,
  TestClock,
  type TestDatabase,
} from '../../test-support/test-server.js';

describe.each(testDialects())('mail through the outbox (%s)', (dialect) => {
  let testDatabase: TestDatabase;
  let smtp: SmtpCapture;
  let smtpPort: number;
  let app: FastifyInstance;
  let api: ApiClient;
  let environment: Record<string, string>;
  const adminEmail = `outbox-admin-${dialect}-${process.pid}@example.com`;

  /** The app as a process would build it at start; the database outlives it. */
  async function startApp(): Promise<FastifyInstance> {
    const config = loadConfig(environment);
    const started = await buildApp({
      config,
      database: testDatabase.database,
      clock: new TestClock(),
      runsScheduler: false,
      buildInfo: { version: '1.0test1234', assembledTime: '2026-11-21T05:00:00.000Z' },
    });
    await started.listen({ host: '127.0.0.1', port: config.port });
    return started;
  }

  beforeAll(async () => {
    testDatabase = await openTestDatabase(dialect);
    smtpPort = await freePort();
    smtp = await startSmtpCapture(smtpPort);
    const port = await freePort();
    environment = {
      ...testDatabase.environment,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEB_DIST_DIR: path.join(testDatabase.environment.DATA_DIR, 'no-web-build'),
      LOG_LEVEL: 'silent',
      SAMPLE_REPORT: '0',
      AUTH_RATE_LIMIT: '1000',
      WORKER_CONCURRENCY: '0',
      ADMIN_EMAILS: adminEmail,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      // Short waits for a test: a first retry after 50 ms, doubled per attempt.
      OUTBOX_POLL_MS: '50',
      OUTBOX_RETRY_BASE_MS: '50',
    };
    app = await startApp();
    api = apiClient(`http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await app.close();
    await smtp.stop();
    await testDatabase.drop();
  });

  async function outbox(token: string, state?: string): Promise<AdminOutboxPage> {
    const answer = await api.get(`/api/admin/outbox${state ? `?state=${state}` : ''}`, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as AdminOutboxPage;
  }

  /** Polls; a request failing on a connection the old app closed counts as "not yet". */
  async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await condition().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('delivers every mail written during an SMTP outage exactly once, across an app restart', async () => {
    const admin = await signUp(api, 'outbox-admin', adminEmail);
    await smtp.nextMailTo(adminEmail);

    await smtp.stop();
    const users = [
      await signUp(api, 'outbox-one'),
      await signUp(api, 'outbox-two'),
      await signUp(api, 'outbox-three'),
    ];
    const reset = await api.post('/api/account/forgotpassword', { email: users[2]?.email });
    expect(reset.status).toBe(200);
    const expected = [...users.map((user) => user.email), users[2]?.email ?? ''];
    // Tried and refused: kept with the error, to be tried again (pending, or sending again).
    const unsent = async () =>
      (await outbox(admin.token)).rows.filter((row) => row.recipient !== adminEmail);
    await until(async () => {
      const rows = await unsent();
      return rows.length === 4 && rows.every((row) => row.attempts >= 1 && row.lastError);
    }, 'four mails tried while SMTP is down');
    const pending = await unsent();
    expect(pending.map((row) => row.recipient).sort()).toEqual([...expected].sort());
    expect(pending.every((row) => row.kind === 'mail' && row.state !== 'sent')).toBe(true);
    expect(pending[0]?.lastError).toMatch(/ECONNREFUSED/);

    // The app restarts while SMTP is still down: its memory is gone, the rows are not.
    await app.close();
    app = await startApp();
    const before = Math.max(...pending.map((row) => row.attempts));
    await until(
      async () => (await unsent()).some((row) => row.attempts > before),
      'the restarted app tries again',
    );

    smtp = await startSmtpCapture(smtpPort);
    for (const email of expected) await smtp.nextMailTo(email, 20_000);
    await until(
      async () => (await outbox(admin.token, 'sent')).total === 5,
      'every mail recorded as sent',
    );
    expect(smtp.mails.map((mail) => mail.to[0]).sort()).toEqual([...expected].sort());
    const sent = await outbox(admin.token, 'sent');
    expect(sent.rows.find((row) => row.recipient === users[0]?.email)).toMatchObject({
      state: 'sent',
      lastError: null,
      nextAttemptAt: null,
    });
    expect(
      sent.rows.find((row) => row.recipient === users[0]?.email)?.attempts,
    ).toBeGreaterThanOrEqual(2);
    // Each row keeps one Message-ID across its attempts.
    expect(new Set(smtp.mails.map((mail) => mail.headers['message-id'])).size).toBe(4);
    // Only administrators read the list.
    expect((await api.get('/api/admin/outbox', users[0]?.token)).status).toBe(403);
  });
});
