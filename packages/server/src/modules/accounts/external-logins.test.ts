import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMessages,
  currentLoginMessage,
  externalLoginsResponseSchema,
  manageInfoSchema,
  onlyLoginMessage,
  tokenResponseSchema,
  userInfoSchema,
} from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { TestBrowser } from '../../test-support/browser.js';
import { signInThroughProvider as roundTrip } from '../../test-support/external-sign-in.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../test-support/oidc-provider.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import {
  freePort,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../test-support/test-server.js';

let sequence = 0;
function newSubject(): string {
  sequence += 1;
  return `subject-${sequence}`;
}

/**
 * The same real provider configured both ways: by its issuer (OpenID Connect discovery, ID
 * token) and by the endpoints of its discovery document with no issuer (userinfo only).
 */
const setups = [
  { configuredBy: 'issuer', name: 'videosite', displayName: 'Video Site' },
  { configuredBy: 'endpoints', name: 'microblog', displayName: 'Micro Blog' },
] as const;
const cases = testDialects().flatMap((dialect) => setups.map((setup) => ({ dialect, ...setup })));

describe.each(cases)('external logins via OpenID provider by $configuredBy ($dialect)', (setup) => {
  const { dialect, configuredBy, name, displayName } = setup;
  let provider: TestOidcProvider;
  let server: TestServer;
  let smtp: SmtpCapture;
  let api: ApiClient;

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    smtp = await startSmtpCapture();
    const port = String(await freePort());
    await provider.registerClient([
      `http://127.0.0.1:${port}/api/account/externalLogin/callback/${name}`,
    ]);
    const providerEnvironment =
      configuredBy === 'issuer'
        ? provider.issuerEnvironment(name, displayName)
        : await provider.endpointsEnvironment(name, displayName);
    server = await startTestServer(dialect, {
      PORT: port,
      OIDC_PROVIDERS: name,
      ...providerEnvironment,
      SMTP_URL: smtp.url,
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
    await provider.stop();
  });

  function signInThroughProvider(returnUrl = '/', browser = new TestBrowser()) {
    return roundTrip(server.baseUrl, name, returnUrl, browser);
  }

  async function registerThroughProvider(email: string) {
    const subject = newSubject();
    provider.signInAs = {
      sub: subject,
      email,
      email_verified: true,
      given_name: 'Vid',
      family_name: 'Eo',
    };
    const external = (await signInThroughProvider()).get('access_token') ?? '';
    const registered = await api.post(
      '/api/account/registerExternal',
      { userName: email, firstName: 'Vid', lastName: 'Eo' },
      external,
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    return { subject, token: tokenResponseSchema.parse(registered.body).access_token };
  }

  it('lists the configured providers with their sign-in links', async () => {
    const answer = await api.get('/api/account/externalLogins?returnUrl=%2F&generateState=true');
    expect(answer.status).toBe(200);
    const [link] = externalLoginsResponseSchema.parse(answer.body);
    expect(link).toMatchObject({ name, displayName });
    expect(link?.state).toMatch(/^[0-9a-f]{32}$/);
    const url = new URL(link?.url ?? '', server.baseUrl);
    expect(url.pathname).toBe('/api/account/externalLogin');
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.baseUrl}/`);
    const withoutState = await api.get(
      '/api/account/externalLogins?returnUrl=%2Fmanage&generateState=false',
    );
    expect(withoutState.body[0].state).toBeUndefined();
  });

  it(`asks for a code with state and PKCE (S256), ${configuredBy === 'issuer' ? 'and' : 'but no'} nonce`, async () => {
    provider.signInAs = { sub: newSubject(), email: 'asked@example.com' };
    const [link] = externalLoginsResponseSchema.parse(
      (await api.get('/api/account/externalLogins?returnUrl=%2F&generateState=true')).body,
    );
    const browser = new TestBrowser();
    const atProvider = await browser.navigate(
      `${server.baseUrl}${link?.url}`,
      (location) => location.origin === provider.issuer,
    );
    const asked = atProvider.searchParams;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('state')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('code_challenge_method')).toBe('S256');
    // Only an ID token carries a nonce back; without an issuer none is read.
    expect(asked.has('nonce')).toBe(configuredBy === 'issuer');
    const landing = await browser.navigate(atProvider.href, (location) =>
      location.href.startsWith(`${server.baseUrl}/#`),
    );
    expect(new URLSearchParams(landing.hash.slice(1)).get('token_type')).toBe('bearer');
  });

  it('signs up a new person: provider sign-in, userInfo (not registered), registerExternal', async () => {
    const subject = newSubject();
    provider.signInAs = {
      sub: subject,
      email: 'vid@example.com',
      email_verified: true,
      given_name: 'Vid',
      family_name: 'Eo',
    };
    const fragment = await signInThroughProvider();
    expect(fragment.get('token_type')).toBe('bearer');
    const external = fragment.get('access_token') ?? '';

    const pending = userInfoSchema.parse((await api.get('/api/account/userInfo', external)).body);
    expect(pending).toMatchObject({
      hasRegistered: false,
      loginProvider: name,
      email: 'vid@example.com',
      firstName: 'Vid',
      lastName: 'Eo',
      emailConfirmed: true,
    });
    expect((await api.get('/api/account/manageInfo', external)).status).toBe(401);

    const missing = await api.post('/api/account/registerExternal', {}, external);
    expect(missing.body.modelState).toEqual({
      userName: [accountMessages.required],
      firstName: [accountMessages.required],
      lastName: [accountMessages.required],
    });

    const registered = await api.post(
      '/api/account/registerExternal',
      { userName: 'vid@example.com', firstName: 'Vid', lastName: 'Eo' },
      external,
    );
    expect(registered.status).toBe(200);
    const token = tokenResponseSchema.parse(registered.body).access_token;
    const info = userInfoSchema.parse((await api.get('/api/account/userInfo', token)).body);
    expect(info).toMatchObject({
      hasRegistered: true,
      loginProvider: name,
      emailConfirmed: true,
    });
    // The external token did its work once.
    expect((await api.get('/api/account/userInfo', external)).status).toBe(401);

    // Next time the provider signs the person straight in.
    const again = await signInThroughProvider();
    const signedIn = userInfoSchema.parse(
      (await api.get('/api/account/userInfo', again.get('access_token') ?? '')).body,
    );
    expect(signedIn).toMatchObject({ hasRegistered: true, userName: 'vid@example.com' });
  });

  it('mails a confirmation when the registered address is not the one the provider vouched for', async () => {
    provider.signInAs = {
      sub: newSubject(),
      email: 'someone@example.com',
      email_verified: false,
    };
    const external = (await signInThroughProvider()).get('access_token') ?? '';
    const registered = await api.post(
      '/api/account/registerExternal',
      { userName: 'other.address@example.com', firstName: 'O', lastName: 'A' },
      external,
    );
    expect(registered.status).toBe(200);
    const mail = await smtp.nextMailTo('other.address@example.com');
    expect(mail.subject).toBe('Confirm your LinkAudit account');
  });

  it('refuses registerExternal for an address that already has an account', async () => {
    await api.post('/api/account/register', {
      firstName: 'T',
      lastName: 'K',
      username: 'taken@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    provider.signInAs = { sub: newSubject(), email: 'taken@example.com', email_verified: true };
    const external = (await signInThroughProvider()).get('access_token') ?? '';
    const answer = await api.post(
      '/api/account/registerExternal',
      { userName: 'taken@example.com', firstName: 'T', lastName: 'K' },
      external,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.modelState).toEqual({ userName: [accountMessages.emailTaken] });
    // Nothing was used up: the person can still register another address.
    const other = await api.post(
      '/api/account/registerExternal',
      { userName: 'not-taken@example.com', firstName: 'T', lastName: 'K' },
      external,
    );
    expect(other.status).toBe(200);
  });

  it('manages logins: both refusals of SPEC §5, set a password, remove, add back', async () => {
    const { subject, token } = await registerThroughProvider('manager@example.com');
    const manage = async (bearer: string) =>
      manageInfoSchema.parse(
        (await api.get('/api/account/manageInfo?returnUrl=%2Fmanage&generateState=false', bearer))
          .body,
      );

    const before = await manage(token);
    expect(before).toMatchObject({
      userName: 'manager@example.com',
      hasLocalLoginProvider: false,
      currentLoginProvider: name,
      logins: [{ loginProvider: name, providerKey: subject, displayName }],
    });
    expect(before.externalLoginProviders[0]?.name).toBe(name);

    const removal = { loginProvider: name, providerKey: subject };
    const only = await api.post('/api/account/removeLogin', removal, token);
    expect(only.status).toBe(400);
    expect(only.body.message).toBe(onlyLoginMessage(displayName));
    expect(only.body.message).toBe(
      `Cannot remove ${displayName} login. Because it's the only login for your account`,
    );

    // Without a local login, changePassword sets the first password: no old password asked.
    const set = await api.post(
      '/api/account/changePassword',
      { newPassword: 'secret1', confirmPassword: 'secret1' },
      token,
    );
    expect(set.status).toBe(200);
    const viaProvider = tokenResponseSchema.parse(set.body).access_token;
    expect((await manage(viaProvider)).hasLocalLoginProvider).toBe(true);

    const current = await api.post('/api/account/removeLogin', removal, viaProvider);
    expect(current.status).toBe(400);
    expect(current.body.message).toBe(currentLoginMessage(displayName));
    expect(current.body.message).toBe(
      `You are logged in with ${displayName} account. Please sign in with another account to remove it`,
    );

    const local = await api.form('/token', {
      grant_type: 'password',
      username: 'manager@example.com',
      password: 'secret1',
    });
    const localToken = tokenResponseSchema.parse(local.body).access_token;
    const unknown = await api.post(
      '/api/account/removeLogin',
      { ...removal, providerKey: 'other' },
      localToken,
    );
    expect(unknown.body.message).toBe(accountMessages.loginNotFound);
    const removed = await api.post('/api/account/removeLogin', removal, localToken);
    expect(removed.status).toBe(200);
    expect((await manage(localToken)).logins).toEqual([]);

    // Add it back: the provider's redirect carries an external token for the unlinked identity.
    const external = (await signInThroughProvider('/manage')).get('access_token') ?? '';
    const added = await api.post(
      '/api/account/addExternalLogin',
      { externalAccessToken: external },
      localToken,
    );
    expect(added.status).toBe(200);
    expect((await manage(localToken)).logins).toHaveLength(1);
    const reused = await api.post(
      '/api/account/addExternalLogin',
      { externalAccessToken: external },
      localToken,
    );
    expect(reused.body.message).toBe(accountMessages.invalidExternalLogin);
  });

  it('refuses to add a login that belongs to another account', async () => {
    await registerThroughProvider('first.owner@example.com');
    await api.post('/api/account/register', {
      firstName: 'S',
      lastName: 'O',
      username: 'second.owner@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    const second = await api.form('/token', {
      grant_type: 'password',
      username: 'second.owner@example.com',
      password: 'secret1',
    });
    const secondToken = tokenResponseSchema.parse(second.body).access_token;
    // provider.signInAs is still the first owner: the redirect signs that account in.
    const firstOwners = (await signInThroughProvider('/manage')).get('access_token') ?? '';
    const answer = await api.post(
      '/api/account/addExternalLogin',
      { externalAccessToken: firstOwners },
      secondToken,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(accountMessages.externalLoginTaken);
    const empty = await api.post('/api/account/addExternalLogin', {}, secondToken);
    expect(empty.body.modelState).toEqual({ externalAccessToken: [accountMessages.required] });
  });

  it('cancelExternalLogin forgets an identity that will not register', async () => {
    provider.signInAs = { sub: newSubject(), email: 'undecided@example.com' };
    const external = (await signInThroughProvider()).get('access_token') ?? '';
    const cancelled = await api.post('/api/account/cancelExternalLogin', undefined, external);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({});
    expect((await api.get('/api/account/userInfo', external)).status).toBe(401);
    expect((await api.post('/api/account/cancelExternalLogin')).status).toBe(401);
  });

  it('returns to the web app with an error when the person declines at the provider', async () => {
    provider.signInAs = null;
    const fragment = await signInThroughProvider();
    expect(fragment.get('error')).toBe('access_denied');
    expect(fragment.has('access_token')).toBe(false);
  });

  it('refuses a callback from a browser that did not start the sign-in', async () => {
    provider.signInAs = { sub: newSubject(), email: 'victim@example.com' };
    const links = externalLoginsResponseSchema.parse(
      (await api.get('/api/account/externalLogins?returnUrl=%2F')).body,
    );
    const attacker = new TestBrowser();
    // The attacker stops at the provider's redirect back and hands that URL to someone else.
    const callback = await attacker.navigate(`${server.baseUrl}${links[0]?.url}`, (location) =>
      location.pathname.startsWith('/api/account/externalLogin/callback/'),
    );
    const landing = await new TestBrowser().navigate(
      callback.href,
      (location) => location.hash !== '',
    );
    expect(new URLSearchParams(landing.hash.slice(1)).get('error')).toBe('invalid_request');
    // The request was used up: the attacker cannot replay it either.
    const replay = await attacker.navigate(callback.href, (location) => location.hash !== '');
    expect(replay.pathname).toBe('/signin');
    expect(new URLSearchParams(replay.hash.slice(1)).get('error')).toBe('invalid_request');
  });

  it('refuses unknown providers and return addresses on other sites', async () => {
    const unknown = await api.get('/api/account/externalLogin?provider=nosuch&redirect_uri=%2F');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(accountMessages.unknownProvider);
    for (const target of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)']) {
      const answer = await api.get(
        `/api/account/externalLogins?returnUrl=${encodeURIComponent(target)}`,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(accountMessages.invalidRedirect);
      const start = await api.get(
        `/api/account/externalLogin?provider=${name}&redirect_uri=${encodeURIComponent(target)}`,
      );
      expect(start.body.message).toBe(accountMessages.invalidRedirect);
    }
  });
});
