import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, signInWaitMessage } from '@linkaudit/core';
import { signUp } from '../../test-support/scan-helpers.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { backoffSeconds, signInBackoff } from './sign-in-backoff.js';

describe('sign-in backoff curve', () => {
  it('lets 5 failures pass, then doubles the wait from 1 s up to 15 minutes', () => {
    expect([0, 1, 4].map(backoffSeconds)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8, 14].map(backoffSeconds)).toEqual([1, 2, 4, 8, 512]);
    expect(backoffSeconds(15)).toBe(signInBackoff.maxWaitSeconds);
    expect(backoffSeconds(10_000)).toBe(signInBackoff.maxWaitSeconds);
  });
});

describe.each(testDialects())('sign-in backoff per account and address (%s)', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let api: ApiClient;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // Behind a trusted proxy each attempt names its client address (X-Forwarded-For); the
    // per-address rate limit is high, so only the backoff can refuse.
    server = await startTestServer(dialect, { TRUST_PROXY: 'true', SMTP_URL: smtp.url });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  async function signIn(username: string, password: string, from: string) {
    const response = await fetch(`${server.baseUrl}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': from,
      },
      body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  /** Mails to `to` so far (the SMTP server's own record). */
  function mailsTo(to: string, subject: string) {
    return smtp.mails.filter((mail) => mail.to.includes(to) && mail.subject === subject);
  }

  it('makes a failing address wait, while the owner signs in from another one', async () => {
    const { email } = await signUp(api, 'target');
    const stranger = '203.0.113.7';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await signIn(email.toUpperCase(), `wrong${attempt}`, stranger)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant', error_description: accountMessages.invalidGrant },
      });
    }
    // The stranger's address waits, even with the right password …
    expect(await signIn(email, 'secret1', stranger)).toMatchObject({
      status: 429,
      retryAfter: '1',
      body: { error: 'invalid_grant', error_description: signInWaitMessage(1) },
    });
    // … and keeps waiting longer as it keeps failing; the owner elsewhere is never held.
    for (let round = 0; round < 4; round++) {
      server.clock.advance(backoffSeconds(5 + round) * 1000);
      expect((await signIn(email, 'guess', stranger)).status).toBe(400);
      expect((await signIn(email, 'secret1', stranger)).status).toBe(429);
    }
    expect((await signIn(email, 'secret1', '198.51.100.20')).status).toBe(200);
    // The owner's success forgets the failures of every address.
    expect((await signIn(email, 'secret1', stranger)).status).toBe(200);
  });

  it('slows guessing from many addresses: each has one try, then waits by the account’s count', async () => {
    const { email } = await signUp(api, 'spread');
    for (let address = 1; address <= 5; address++) {
      expect((await signIn(email, 'guess', `192.0.2.${address}`)).status).toBe(400);
    }
    expect((await signIn(email, 'guess', '192.0.2.1')).status).toBe(429);
    expect((await signIn(email, 'guess', '192.0.2.6')).status).toBe(400);
    expect((await signIn(email, 'secret1', '192.0.2.6')).status).toBe(429);
    expect((await signIn(email, 'secret1', '192.0.2.99')).status).toBe(200);
  });

  it('mails the owner once per burst of failures, not per attempt', async () => {
    const { email } = await signUp(api, 'warned');
    expect((await smtp.nextMailTo(email)).subject).toBe('Confirm your LinkAudit account');
    const subject = 'Failed sign-ins to your LinkAudit account';
    for (let attempt = 0; attempt < 4; attempt++) {
      await signIn(email, 'guess', `198.51.100.${attempt}`);
    }
    expect(mailsTo(email, subject)).toHaveLength(0);
    for (let attempt = 4; attempt < 12; attempt++) {
      await signIn(email, 'guess', `198.51.100.${attempt}`);
    }
    const warning = await smtp.nextMailTo(email);
    expect(warning.subject).toBe(subject);
    expect(warning.text).toContain(`/forgotpassword/${encodeURIComponent(email)}`);
    // A success ends the burst; the next one is told again.
    expect((await signIn(email, 'secret1', '198.51.100.200')).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++) {
      await signIn(email, 'guess', `198.51.100.${100 + attempt}`);
    }
    expect((await smtp.nextMailTo(email)).subject).toBe(subject);
    // Sent while the first burst went on, any further mail would have arrived by now.
    expect(mailsTo(email, subject)).toHaveLength(2);
  });

  it('counts addresses without an account alike, so the answer does not tell which exist', async () => {
    const nobody = `nobody-${dialect}@example.com`;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(nobody, 'guess', '203.0.113.50')).status).toBe(400);
    }
    expect(await signIn(nobody, 'guess', '203.0.113.50')).toMatchObject({
      status: 429,
      body: { error_description: signInWaitMessage(1) },
    });
  });
});
