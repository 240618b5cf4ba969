import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, signInWaitMessage } from '@linkaudit/core';
import { signUp } from '../../test-support/scan-helpers.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
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

describe.each(testDialects())('per-account sign-in backoff over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let address = 0;

  beforeAll(async () => {
    // Behind a trusted proxy every attempt below comes from another client address, so the
    // per-address rate limit never applies: only the account's own backoff can refuse.
    server = await startTestServer(dialect, { TRUST_PROXY: 'true', AUTH_RATE_LIMIT: '3' });
    api = apiClient(server.baseUrl);
  });
  afterAll(() => server.stop());

  async function signIn(username: string, password: string) {
    address += 1;
    const response = await fetch(`${server.baseUrl}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': `203.0.113.${address % 250}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  it('makes an account wait after 5 failures from any addresses, even with the right password', async () => {
    const { email } = await signUp(api, 'target');
    const { email: bystander } = await signUp(api, 'bystander');
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await signIn(email.toUpperCase(), `wrong${attempt}`);
      expect(wrong).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant', error_description: accountMessages.invalidGrant },
      });
    }
    const locked = await signIn(email, 'secret1');
    expect(locked).toMatchObject({
      status: 429,
      retryAfter: '1',
      body: { error: 'invalid_grant', error_description: signInWaitMessage(1) },
    });
    expect((await signIn(bystander, 'secret1')).status).toBe(200);

    server.clock.advance(1000);
    expect((await signIn(email, 'wrong again')).status).toBe(400);
    // Six failures in a row: two seconds now.
    server.clock.advance(1000);
    expect(await signIn(email, 'secret1')).toMatchObject({ status: 429, retryAfter: '1' });
    server.clock.advance(1000);
    expect((await signIn(email, 'secret1')).status).toBe(200);

    // A success starts the count again.
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await signIn(email, 'nope')).status).toBe(400);
    }
    expect((await signIn(email, 'secret1')).status).toBe(200);
  });

  it('counts addresses without an account alike, so the answer does not tell which exist', async () => {
    const nobody = `nobody-${dialect}@example.com`;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(nobody, 'guess')).status).toBe(400);
    }
    expect(await signIn(nobody, 'guess')).toMatchObject({
      status: 429,
      body: { error_description: signInWaitMessage(1) },
    });
  });
});
