import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMessages,
  tokenErrorSchema,
  tokenResponseSchema,
  userInfoSchema,
} from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { firstLink } from '../../test-support/mime.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runAdminCommand } from './admin-command.js';

const required = accountMessages.required;
let sequence = 0;

/** A fresh address per test, so tests share one server without meeting each other. */
function newEmail(name: string): string {
  sequence += 1;
  return `${name}.${sequence}@example.com`;
}

describe.each(testDialects())('accounts over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let api: ApiClient;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(dialect, {
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: 'Boss@Example.com',
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  async function register(
    email: string,
    password = 'secret1',
    headers: Record<string, string> = {},
  ) {
    const answer = await api.post(
      '/api/account/register',
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        username: email,
        password,
        confirmPassword: password,
      },
      undefined,
      headers,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer;
  }

  async function signIn(username: string, password: string, extra: Record<string, string> = {}) {
    return api.form('/token', { grant_type: 'password', username, password, ...extra });
  }

  async function tokenOf(username: string, password: string): Promise<string> {
    const answer = await signIn(username, password);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return tokenResponseSchema.parse(answer.body).access_token;
  }

  /** The web route of a mailed link, turned into the API call its page makes. */
  function linkQuery(link: string, webPath: string): URLSearchParams {
    const url = new URL(link);
    expect(url.origin).toBe(server.baseUrl);
    expect(url.pathname).toBe(webPath);
    return url.searchParams;
  }

  describe('register and confirm', () => {
    it('registers, mails a confirmation link, and the link confirms the address once', async () => {
      const email = newEmail('ada');
      const answer = await register(email);
      expect(answer.body).toEqual({ userName: email });

      const mail = await smtp.nextMailTo(email);
      expect(mail.subject).toBe('Confirm your LinkAudit account');
      expect(mail.text).toContain('Hello Ada,');
      expect(mail.text).toContain('The link works for 7 days.');
      const query = linkQuery(firstLink(mail.text), '/confirmemail');
      expect(mail.html).toContain('Confirm my e-mail address');

      const token = await tokenOf(email, 'secret1');
      const before = userInfoSchema.parse((await api.get('/api/account/userInfo', token)).body);
      expect(before.emailConfirmed).toBe(false);

      const confirmed = await api.get(`/api/account/confirmEmail?${query}`);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ userName: email });
      const after = userInfoSchema.parse((await api.get('/api/account/userInfo', token)).body);
      expect(after.emailConfirmed).toBe(true);

      const again = await api.get(`/api/account/confirmEmail?${query}`);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ message: accountMessages.invalidConfirmationLink });
    });

    it('refuses a wrong, foreign or expired confirmation code', async () => {
      const email = newEmail('grace');
      await register(email);
      const query = linkQuery(firstLink((await smtp.nextMailTo(email)).text), '/confirmemail');
      const userId = query.get('userId') ?? '';

      const wrong = await api.get(`/api/account/confirmEmail?code=not-the-code&userId=${userId}`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe(accountMessages.invalidConfirmationLink);
      const unknownUser = await api.get(
        `/api/account/confirmEmail?code=${query.get('code')}&userId=nobody`,
      );
      expect(unknownUser.body.message).toBe(accountMessages.invalidConfirmationLink);
      const missing = await api.get('/api/account/confirmEmail');
      expect(missing.status).toBe(400);
      expect(missing.body.modelState).toEqual({ code: [required], userId: [required] });

      server.clock.advance(8 * 24 * 3600 * 1000);
      try {
        const expired = await api.get(`/api/account/confirmEmail?${query}`);
        expect(expired.status).toBe(400);
        expect(expired.body.message).toBe(accountMessages.invalidConfirmationLink);
      } finally {
        server.clock.advance(-8 * 24 * 3600 * 1000);
      }
    });

    it('answers every SPEC §5 message for a bad registration form', async () => {
      const empty = await api.post('/api/account/register', {});
      expect(empty.status).toBe(400);
      expect(empty.body.modelState).toEqual({
        firstName: [required],
        lastName: [required],
        username: [required],
        password: [required],
        confirmPassword: [required],
      });

      const bad = await api.post('/api/account/register', {
        firstName: ' ',
        lastName: 'L',
        username: 'not-an-address',
        password: '12345',
        confirmPassword: '54321',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('The request is invalid.');
      expect(bad.body.modelState).toEqual({
        firstName: [required],
        username: [accountMessages.invalidEmail],
        password: [accountMessages.passwordTooShort],
        confirmPassword: [accountMessages.passwordsMustMatch],
      });
    });

    it('answers a registered address as a new one, in any letter case, and mails its owner', async () => {
      const email = newEmail('twice');
      const first = await register(email);
      await smtp.nextMailTo(email);
      const newcomer = newEmail('newcomer');
      const body = (username: string) => ({
        firstName: 'A',
        lastName: 'B',
        username,
        password: 'other1',
        confirmPassword: 'other1',
      });
      const again = await api.post('/api/account/register', body(email.toUpperCase()));
      const fresh = await api.post('/api/account/register', body(newcomer));
      // Status and shape alike: the address echoed as sent, whether or not it had an account.
      expect(again).toMatchObject({ status: 200, body: { userName: email.toUpperCase() } });
      expect(fresh).toMatchObject({ status: 200, body: { userName: newcomer } });
      expect(Object.keys(again.body as object)).toEqual(Object.keys(fresh.body as object));
      expect(first.body).toEqual({ userName: email });

      const notice = await smtp.nextMailTo(email);
      expect(notice.subject).toBe('Your LinkAudit account');
      expect(notice.text).toContain('Someone tried to join LinkAudit with your e-mail address');
      expect(notice.text).toContain(`${server.baseUrl}/signin`);
      expect((await smtp.nextMailTo(newcomer)).subject).toBe('Confirm your LinkAudit account');
      // Nothing changed: the owner's password still works, the stranger's does not.
      expect((await signIn(email, 'secret1')).status).toBe(200);
      expect((await signIn(email, 'other1')).status).toBe(400);
    });

    it('registers an address once when two registrations of it arrive together (issue 37)', async () => {
      const email = newEmail('double-click');
      const body = {
        firstName: 'Ada',
        lastName: 'Lovelace',
        username: email,
        password: 'secret1',
        confirmPassword: 'secret1',
      };
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => api.post('/api/account/register', body)),
      );
      // Issue 36: a taken address is answered as a new one (its owner is mailed instead).
      for (const answer of answers)
        expect(answer).toMatchObject({ status: 200, body: { userName: email } });
      const accounts = await server.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(accounts).toHaveLength(1);
      const subjects = await Promise.all(answers.map(() => smtp.nextMailTo(email)));
      expect(subjects.map((mail) => mail.subject).sort()).toEqual([
        'Confirm your LinkAudit account',
        'Your LinkAudit account',
        'Your LinkAudit account',
        'Your LinkAudit account',
      ]);
      const signIn = await api.form('/token', {
        grant_type: 'password',
        username: email,
        password: 'secret1',
      });
      expect(signIn.status).toBe(200);
    });

    it('writes the mail in Chinese for a zh-CN browser or lang field, and keeps the language', async () => {
      const fromHeader = newEmail('li');
      await register(fromHeader, 'secret1', { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' });
      const mail = await smtp.nextMailTo(fromHeader);
      expect(mail.subject).toBe('确认您的 LinkAudit 账户');
      expect(mail.text).toContain('该链接在 7 天内有效。');

      const fromField = newEmail('wang');
      await api.post('/api/account/register', {
        firstName: '王',
        lastName: '芳',
        username: fromField,
        password: 'secret1',
        confirmPassword: 'secret1',
        lang: 'zh-CN',
      });
      expect((await smtp.nextMailTo(fromField)).text).toContain('王，您好：');
      const info = await api.get('/api/account/userInfo', await tokenOf(fromField, 'secret1'));
      expect(info.body.language).toBe('zh-CN');

      await api.post('/api/account/forgotpassword', { email: fromField });
      expect((await smtp.nextMailTo(fromField)).subject).toBe('重置您的 LinkAudit 密码');
    });
  });

  describe('POST /token', () => {
    let email: string;
    beforeAll(async () => {
      email = newEmail('token');
      await register(email);
    });

    it('signs in with a form-encoded password grant (unconfirmed addresses too)', async () => {
      const answer = await signIn(email.toUpperCase(), 'secret1');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const token = tokenResponseSchema.parse(answer.body);
      expect(token).toMatchObject({ token_type: 'bearer', expires_in: 24 * 3600, userName: email });
      expect(Date.parse(token['.expires']) - Date.parse(token['.issued'])).toBe(24 * 3600 * 1000);
    });

    it('gives a longer token with rememberMe', async () => {
      const answer = await signIn(email, 'secret1', { rememberMe: 'true' });
      expect(answer.body.expires_in).toBe(30 * 24 * 3600);
    });

    it('answers invalid_grant for a wrong password or an unknown user alike', async () => {
      for (const [username, password] of [
        [email, 'wrong-password'],
        ['nobody@example.com', 'secret1'],
        ['not an address', 'secret1'],
      ] as const) {
        const answer = await signIn(username, password);
        expect(answer.status).toBe(400);
        expect(tokenErrorSchema.parse(answer.body)).toEqual({
          error: 'invalid_grant',
          error_description: 'The user name or password is incorrect.',
        });
      }
    });

    it('answers unsupported_grant_type and invalid_request as OAuth 2 does', async () => {
      const other = await api.form('/token', {
        grant_type: 'client_credentials',
        username: email,
        password: 'x',
      });
      expect(other.status).toBe(400);
      expect(other.body).toEqual({
        error: 'unsupported_grant_type',
        error_description: accountMessages.unsupportedGrantType,
      });
      const noGrant = await api.form('/token', { username: email, password: 'secret1' });
      expect(noGrant.body.error).toBe('invalid_request');
      const noPassword = await api.form('/token', { grant_type: 'password', username: email });
      expect(noPassword.body).toEqual({
        error: 'invalid_request',
        error_description: accountMessages.missingCredentials,
      });
    });

    it('expires tokens', async () => {
      const token = await tokenOf(email, 'secret1');
      server.clock.advance(25 * 3600 * 1000);
      try {
        expect((await api.get('/api/account/userInfo', token)).status).toBe(401);
      } finally {
        server.clock.advance(-25 * 3600 * 1000);
      }
      expect((await api.get('/api/account/userInfo', token)).status).toBe(200);
    });
  });

  describe('userInfo and logout', () => {
    it('answers the SPEC §3 user info, plan Free', async () => {
      const email = newEmail('info');
      await register(email);
      const token = await tokenOf(email, 'secret1');
      const answer = await api.get('/api/account/userInfo', token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        userName: email,
        email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        roles: ['user'],
        language: 'en',
        emailConfirmed: false,
        hasRegistered: true,
        loginProvider: 'Local',
        paymentFailed: false,
        paidPlanId: 'Free',
        cancelAtPeriodEnd: false,
        daysOfTrialLeft: 0,
        canceledAt: null,
        paymentGatewaySubscriptionId: null,
        voucher: null,
      });
    });

    it('denies requests without a valid bearer token', async () => {
      const denied = { message: 'Authorization has been denied for this request.' };
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer nonsense' },
        { authorization: 'Basic abc' },
      ];
      for (const headers of attempts) {
        const answer = await api.get('/api/account/userInfo', undefined, headers);
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(denied);
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      }
      const forged = await api.get(
        '/api/account/userInfo',
        'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLW5vdC12YWxpZA',
      );
      expect(forged.body).toEqual(denied);
    });

    it('logout revokes that token and no other', async () => {
      const email = newEmail('logout');
      await register(email);
      const first = await tokenOf(email, 'secret1');
      const second = await tokenOf(email, 'secret1');
      const answer = await api.post('/api/account/logout', undefined, first);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({});
      expect((await api.get('/api/account/userInfo', first)).status).toBe(401);
      expect((await api.post('/api/account/logout', undefined, first)).status).toBe(401);
      expect((await api.get('/api/account/userInfo', second)).status).toBe(200);
    });

    it('matches paths in any letter case, as the old server did', async () => {
      const email = newEmail('case');
      await register(email);
      const token = await tokenOf(email, 'secret1');
      expect((await api.get('/api/Account/UserInfo', token)).status).toBe(200);
    });
  });

  describe('forgot and reset password', () => {
    it('answers the same whether or not the address exists, and mails only real accounts', async () => {
      const email = newEmail('forgot');
      await register(email);
      await smtp.nextMailTo(email);
      const unknown = await api.post('/api/account/forgotpassword', { email: newEmail('nobody') });
      const known = await api.post('/api/account/forgotpassword', { email });
      expect(unknown.status).toBe(200);
      expect(known.status).toBe(200);
      expect(unknown.body).toEqual(known.body);
      const mail = await smtp.nextMailTo(email);
      expect(mail.subject).toBe('Reset your LinkAudit password');
      expect(mail.text).toContain('The link works for 1 hour and only once.');
      expect(smtp.mails.some((m) => m.to.some((to) => to.startsWith('nobody.')))).toBe(false);
    });

    it('resets the password once with the mailed code and signs out every session', async () => {
      const email = newEmail('reset');
      await register(email);
      await smtp.nextMailTo(email);
      const oldToken = await tokenOf(email, 'secret1');
      await api.post('/api/account/forgotpassword', { email });
      const query = linkQuery(firstLink((await smtp.nextMailTo(email)).text), '/resetpassword');
      expect(query.get('email')).toBe(email);

      const wrongCode = await api.post('/api/account/resetpassword', {
        email,
        password: 'newsecret',
        confirmPassword: 'newsecret',
        code: 'not-the-code',
      });
      expect(wrongCode.status).toBe(400);
      expect(wrongCode.body).toEqual({ message: accountMessages.invalidResetLink });

      const body = {
        email,
        password: 'newsecret',
        confirmPassword: 'newsecret',
        code: query.get('code'),
      };
      const reset = await api.post('/api/account/resetpassword', body);
      expect(reset.status).toBe(200);
      expect((await signIn(email, 'secret1')).status).toBe(400);
      const newToken = await tokenOf(email, 'newsecret');
      expect((await api.get('/api/account/userInfo', oldToken)).status).toBe(401);
      const info = await api.get('/api/account/userInfo', newToken);
      expect(info.body.emailConfirmed).toBe(true);

      const reuse = await api.post('/api/account/resetpassword', {
        ...body,
        password: 'third1',
        confirmPassword: 'third1',
      });
      expect(reuse.status).toBe(400);
      expect(reuse.body.message).toBe(accountMessages.invalidResetLink);
    });

    it('refuses an expired reset code', async () => {
      const email = newEmail('late');
      await register(email);
      await api.post('/api/account/forgotpassword', { email });
      await smtp.nextMailTo(email);
      const query = linkQuery(firstLink((await smtp.nextMailTo(email)).text), '/resetpassword');
      server.clock.advance(61 * 60 * 1000);
      try {
        const late = await api.post('/api/account/resetpassword', {
          email,
          password: 'newsecret',
          confirmPassword: 'newsecret',
          code: query.get('code'),
        });
        expect(late.status).toBe(400);
        expect(late.body.message).toBe(accountMessages.invalidResetLink);
      } finally {
        server.clock.advance(-61 * 60 * 1000);
      }
    });

    it('answers the SPEC §5 messages for bad forgot and reset forms', async () => {
      const forgot = await api.post('/api/account/forgotpassword', {});
      expect(forgot.body.modelState).toEqual({ email: [required] });
      const forgotBad = await api.post('/api/account/forgotpassword', { email: 'x' });
      expect(forgotBad.body.modelState).toEqual({ email: [accountMessages.invalidEmail] });
      const reset = await api.post('/api/account/resetpassword', {});
      expect(reset.body.modelState).toEqual({
        email: [required],
        password: [required],
        confirmPassword: [required],
        code: [required],
      });
      const mismatch = await api.post('/api/account/resetpassword', {
        email: 'a@example.com',
        password: 'abc',
        confirmPassword: 'abcd',
        code: 'c',
      });
      expect(mismatch.body.modelState).toEqual({
        password: [accountMessages.passwordTooShort],
        confirmPassword: [accountMessages.passwordsMustMatch],
      });
    });
  });

  describe('change password', () => {
    it('requires the old password, changes it, and replaces the session token', async () => {
      const email = newEmail('change');
      await register(email);
      const token = await tokenOf(email, 'secret1');
      const change = (body: object, bearer = token) =>
        api.post('/api/account/changePassword', body, bearer);

      const noOld = await change({ newPassword: 'secret2', confirmPassword: 'secret2' });
      expect(noOld.status).toBe(400);
      expect(noOld.body.modelState).toEqual({ oldPassword: [accountMessages.oldPasswordRequired] });
      const wrongOld = await change({
        oldPassword: 'nope',
        newPassword: 'secret2',
        confirmPassword: 'secret2',
      });
      expect(wrongOld.body.modelState).toEqual({
        oldPassword: [accountMessages.oldPasswordIncorrect],
      });
      const badNew = await change({
        oldPassword: 'secret1',
        newPassword: 'abc',
        confirmPassword: 'abd',
      });
      expect(badNew.body.modelState).toEqual({
        newPassword: [accountMessages.passwordTooShort],
        confirmPassword: [accountMessages.passwordsMustMatch],
      });
      const empty = await change({});
      expect(empty.body.modelState).toEqual({
        newPassword: [required],
        confirmPassword: [required],
      });

      const changed = await change({
        oldPassword: 'secret1',
        newPassword: 'secret2',
        confirmPassword: 'secret2',
      });
      expect(changed.status).toBe(200);
      const replacement = tokenResponseSchema.parse(changed.body);
      expect((await api.get('/api/account/userInfo', token)).status).toBe(401);
      expect((await api.get('/api/account/userInfo', replacement.access_token)).status).toBe(200);
      expect((await signIn(email, 'secret1')).status).toBe(400);
      expect((await signIn(email, 'secret2')).status).toBe(200);
      expect(
        (await change({ newPassword: 'x12345', confirmPassword: 'x12345' }, 'stale')).status,
      ).toBe(401);
    });
  });

  describe('roles', () => {
    it('makes ADMIN_EMAILS admins, and `admin grant` others', async () => {
      await register('boss@example.com');
      const boss = await api.get(
        '/api/account/userInfo',
        await tokenOf('boss@example.com', 'secret1'),
      );
      expect(boss.body.roles).toEqual(['user', 'admin']);

      const email = newEmail('staff');
      await register(email);
      const token = await tokenOf(email, 'secret1');
      expect((await api.get('/api/account/userInfo', token)).body.roles).toEqual(['user']);
      expect(await runAdminCommand(server.database.db, ['grant', email.toUpperCase()])).toBe(
        `${email.toUpperCase()} is now an admin.`,
      );
      expect((await api.get('/api/account/userInfo', token)).body.roles).toEqual(['user', 'admin']);
      await runAdminCommand(server.database.db, ['revoke', email]);
      expect((await api.get('/api/account/userInfo', token)).body.roles).toEqual(['user']);
      await expect(
        runAdminCommand(server.database.db, ['grant', 'ghost@example.com']),
      ).rejects.toThrow('No account has the address ghost@example.com');
      await expect(runAdminCommand(server.database.db, ['promote', email])).rejects.toThrow(
        'usage:',
      );
    });
  });

  describe('safety', () => {
    it('answers malformed bodies with a message and no stack trace', async () => {
      const response = await fetch(`${server.baseUrl}/api/account/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"firstName": ',
      });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text)).toHaveProperty('message');
      expect(text).not.toMatch(/at .*\.(js|ts):\d+/);
    });

    it('sends security headers', async () => {
      const answer = await api.get('/api/account/externalLogins');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
    });
  });
});

describe('rate limits on sign-in, register and forgot password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { AUTH_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(['/token', '/api/account/register', '/api/account/forgotpassword'])(
    'answers 429 after the limit on %s, whatever X-Forwarded-For claims',
    async (path) => {
      const attempt = (index: number) =>
        fetch(`${server.baseUrl}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': `203.0.113.${index}`,
          },
          body: 'grant_type=password&username=a%40b.cd&password=x',
        });
      const statuses: number[] = [];
      for (let index = 0; index < 3; index += 1) statuses.push((await attempt(index)).status);
      expect(statuses).not.toContain(429);
      const limited = await attempt(99);
      expect(limited.status).toBe(429);
      const body = (await limited.json()) as { message: string };
      expect(body.message).toMatch(/^Too many requests\. Please try again in /);
    },
  );
});
