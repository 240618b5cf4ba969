import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountMessages,
  accountOkSchema,
  addExternalLoginRequestSchema,
  externalLoginsQuerySchema,
  externalLoginsResponseSchema,
  manageInfoSchema,
  registerExternalRequestSchema,
  removeLoginRequestSchema,
  tokenResponseSchema,
} from '@linkaudit/core';
import { requestCredential, signedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { ExternalLoginService } from './external-logins.service.js';
import { requestLanguage } from './request-language.js';

export interface ExternalLoginRouteDeps {
  externalLogins: ExternalLoginService;
  /** PUBLIC_URL is https: the request cookie is sent over https only. */
  secureCookies: boolean;
}

/** Ties a provider's redirect back to the browser that started the sign-in. */
const requestCookie = 'linkaudit_external_login';
const requestCookiePath = '/api/account/externalLogin';

const startQuerySchema = z.object({
  provider: z.string().min(1, accountMessages.required).max(50),
  redirect_uri: z.string().min(1, accountMessages.required).max(2000),
  state: z.string().max(500).optional(),
  // The old client's URL carries these (implicit-grant style); the answer is always a token.
  response_type: z.string().optional(),
  client_id: z.string().optional(),
});

/** SPEC §7 Auth: external logins, and the redirect flow through the provider. */
export function registerExternalLoginRoutes(
  app: FastifyInstance,
  deps: ExternalLoginRouteDeps,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { externalLogins } = deps;

  routes.get(
    '/api/account/externalLogins',
    {
      schema: {
        querystring: externalLoginsQuerySchema,
        response: { 200: externalLoginsResponseSchema },
      },
    },
    (request) => externalLogins.providerLinks(request.query.returnUrl, request.query.generateState),
  );

  routes.get(
    '/api/account/manageInfo',
    {
      onRequest: app.requireUser,
      schema: { querystring: externalLoginsQuerySchema, response: { 200: manageInfoSchema } },
    },
    (request) =>
      externalLogins.manageInfo(
        signedInUser(request),
        request.query.returnUrl,
        request.query.generateState,
      ),
  );

  routes.get(
    '/api/account/externalLogin',
    { schema: { querystring: startQuerySchema } },
    async (request, reply) => {
      const { provider, redirect_uri: redirectUri, state } = request.query;
      const started = await externalLogins.start({ provider, redirectUri, state });
      void reply.setCookie(requestCookie, started.requestId, {
        path: requestCookiePath,
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.secureCookies,
        maxAge: 10 * 60,
      });
      return reply.redirect(started.authorizationUrl, 302);
    },
  );

  routes.get(
    '/api/account/externalLogin/callback/:provider',
    { schema: { params: z.object({ provider: z.string().max(50) }) } },
    async (request, reply) => {
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      const location = await externalLogins.finish(
        request.params.provider,
        query,
        request.cookies[requestCookie],
      );
      void reply.clearCookie(requestCookie, { path: requestCookiePath });
      void reply.header('cache-control', 'no-store');
      return reply.redirect(location, 302);
    },
  );

  routes.post(
    '/api/account/registerExternal',
    {
      onRequest: app.requireUserOrExternalSignIn,
      schema: { body: registerExternalRequestSchema, response: { 200: tokenResponseSchema } },
    },
    (request) => {
      const credential = requestCredential(request);
      if (credential.kind !== 'external')
        throw new HttpError(400, accountMessages.invalidExternalLogin);
      return externalLogins.registerExternal(
        credential.signIn,
        request.body,
        requestLanguage(request, request.body.lang),
      );
    },
  );

  routes.post(
    '/api/account/addExternalLogin',
    {
      onRequest: app.requireUser,
      schema: { body: addExternalLoginRequestSchema, response: { 200: accountOkSchema } },
    },
    async (request) => {
      await externalLogins.addExternalLogin(
        signedInUser(request),
        request.body.externalAccessToken,
      );
      return {};
    },
  );

  routes.post(
    '/api/account/removeLogin',
    {
      onRequest: app.requireUser,
      schema: { body: removeLoginRequestSchema, response: { 200: accountOkSchema } },
    },
    async (request) => {
      await externalLogins.removeLogin(signedInUser(request), request.body);
      return {};
    },
  );

  routes.post(
    '/api/account/cancelExternalLogin',
    { onRequest: app.requireUserOrExternalSignIn, schema: { response: { 200: accountOkSchema } } },
    async (request) => {
      await externalLogins.cancel(requestCredential(request));
      return {};
    },
  );
}
