import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  externalLoginsResponseSchema,
  manageInfoSchema,
  tokenResponseSchema,
  userInfoSchema,
} from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signInThroughProvider } from '../../test-support/external-sign-in.js';
import { startTestOAuth2Server, type TestOAuth2Server } from '../../test-support/oauth2-server.js';
import {
  freePort,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../test-support/test-server.js';

/** A GitHub-like provider: plain OAuth 2, no ID token, the person by a numeric `id`. */
describe.each(testDialects())(
  'external logins through a plain OAuth 2 provider (%s)',
  (dialect) => {
    let oauth: TestOAuth2Server;
    let server: TestServer;
    let api: ApiClient;
    let callbackUrl: string;

    beforeAll(async () => {
      const port = String(await freePort());
      callbackUrl = `http://127.0.0.1:${port}/api/account/externalLogin/callback/codehost`;
      oauth = await startTestOAuth2Server([callbackUrl]);
      server = await startTestServer(dialect, {
        PORT: port,
        OIDC_PROVIDERS: 'codehost',
        ...oauth.environment('codehost', 'Code Host'),
      });
      api = apiClient(server.baseUrl);
    });
    afterAll(async () => {
      await server.stop();
      await oauth.stop();
    });

    const signIn = (returnUrl = '/') =>
      signInThroughProvider(server.baseUrl, 'codehost', returnUrl);

    async function manage(token: string) {
      const answer = await api.get('/api/account/manageInfo?returnUrl=%2Fmanage', token);
      return manageInfoSchema.parse(answer.body);
    }

    async function localAccount(email: string): Promise<string> {
      await api.post('/api/account/register', {
        firstName: 'L',
        lastName: 'A',
        username: email,
        password: 'secret1',
        confirmPassword: 'secret1',
      });
      const signedIn = await api.form('/token', {
        grant_type: 'password',
        username: email,
        password: 'secret1',
      });
      return tokenResponseSchema.parse(signedIn.body).access_token;
    }

    it('is offered in externalLogins like any provider', async () => {
      const answer = await api.get('/api/account/externalLogins?returnUrl=%2F&generateState=true');
      expect(externalLoginsResponseSchema.parse(answer.body)).toEqual([
        expect.objectContaining({ name: 'codehost', displayName: 'Code Host' }),
      ]);
    });

    it('asks with state and PKCE (S256) but no nonce, and trades the code with its verifier', async () => {
      oauth.signInAs = { id: 1001, login: 'asker' };
      const fragment = await signIn();
      expect(fragment.get('token_type')).toBe('bearer');

      const asked = oauth.authorizationRequests.at(-1);
      expect(asked?.get('response_type')).toBe('code');
      expect(asked?.get('scope')).toBe('read:user user:email');
      expect(asked?.get('redirect_uri')).toBe(callbackUrl);
      expect(asked?.get('state')).toMatch(/^[\w-]{43}$/);
      expect(asked?.get('code_challenge_method')).toBe('S256');
      expect(asked?.has('nonce')).toBe(false);
      const traded = oauth.tokenRequests.at(-1);
      expect(traded?.get('grant_type')).toBe('authorization_code');
      expect(traded?.get('redirect_uri')).toBe(callbackUrl);
      // The server refuses a verifier that does not match the challenge; this one passed.
      expect(traded?.get('code_verifier')).toMatch(/^[\w-]{43,128}$/);
    });

    it('signs up the person of the user API (numeric id, full name), then signs them straight in', async () => {
      oauth.signInAs = {
        id: 4242,
        login: 'octo',
        name: 'Octo Cat Smith',
        email: 'octo@example.com',
      };
      const external = (await signIn()).get('access_token') ?? '';
      const pending = userInfoSchema.parse((await api.get('/api/account/userInfo', external)).body);
      expect(pending).toMatchObject({
        hasRegistered: false,
        loginProvider: 'codehost',
        email: 'octo@example.com',
        firstName: 'Octo',
        lastName: 'Cat Smith',
        // A plain OAuth 2 API shows an address without vouching for it.
        emailConfirmed: false,
      });

      const registered = await api.post(
        '/api/account/registerExternal',
        { userName: 'octo@example.com', firstName: 'Octo', lastName: 'Cat Smith' },
        external,
      );
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      const token = tokenResponseSchema.parse(registered.body).access_token;
      expect((await manage(token)).logins).toEqual([
        { loginProvider: 'codehost', providerKey: '4242', displayName: 'Code Host' },
      ]);

      const again = (await signIn()).get('access_token') ?? '';
      const signedIn = userInfoSchema.parse((await api.get('/api/account/userInfo', again)).body);
      expect(signedIn).toMatchObject({
        hasRegistered: true,
        userName: 'octo@example.com',
        loginProvider: 'codehost',
        emailConfirmed: false,
      });
    });

    it('adds the login to an account with a password, signs in with it, and removes it', async () => {
      const localToken = await localAccount('linker@example.com');
      oauth.signInAs = { id: 5151, login: 'linker' };
      const external = (await signIn('/manage')).get('access_token') ?? '';
      const added = await api.post(
        '/api/account/addExternalLogin',
        { externalAccessToken: external },
        localToken,
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect((await manage(localToken)).logins).toEqual([
        { loginProvider: 'codehost', providerKey: '5151', displayName: 'Code Host' },
      ]);

      const viaProvider = (await signIn()).get('access_token') ?? '';
      const info = userInfoSchema.parse((await api.get('/api/account/userInfo', viaProvider)).body);
      expect(info).toMatchObject({ hasRegistered: true, userName: 'linker@example.com' });

      const removal = { loginProvider: 'codehost', providerKey: '5151' };
      const removed = await api.post('/api/account/removeLogin', removal, localToken);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect((await manage(localToken)).logins).toEqual([]);
    });

    it('takes an OpenID `sub` over an `id` when the user API answers both', async () => {
      const localToken = await localAccount('both.ids@example.com');
      oauth.signInAs = { sub: 'person-7', id: 7, login: 'both' };
      const external = (await signIn('/manage')).get('access_token') ?? '';
      await api.post(
        '/api/account/addExternalLogin',
        { externalAccessToken: external },
        localToken,
      );
      expect((await manage(localToken)).logins[0]?.providerKey).toBe('person-7');
    });

    it('refuses a sign-in whose user API names nobody', async () => {
      oauth.signInAs = { login: 'ghost', name: 'No Id' };
      const fragment = await signIn();
      expect(fragment.get('error')).toBe('server_error');
      expect(fragment.has('access_token')).toBe(false);
    });

    it('returns to the web app with an error when the person declines', async () => {
      oauth.signInAs = null;
      const fragment = await signIn();
      expect(fragment.get('error')).toBe('access_denied');
      expect(fragment.has('access_token')).toBe(false);
    });
  },
);
