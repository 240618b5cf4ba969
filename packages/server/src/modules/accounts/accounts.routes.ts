import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountMessages,
  accountOkSchema,
  changePasswordRequestSchema,
  confirmEmailQuerySchema,
  confirmEmailResponseSchema,
  forgotPasswordRequestSchema,
  registerRequestSchema,
  registerResponseSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  tokenResponseSchema,
  userInfoSchema,
} from '@linkaudit/core';
import { requestCredential, signedInUser } from '../../plugins/authentication.js';
import { OAuthError } from '../../plugins/error-handler.js';
import type { AccountService } from './accounts.service.js';
import { requestLanguage } from './request-language.js';

export interface AccountRouteDeps {
  accounts: AccountService;
  /** Requests per minute and client address on sign-in, register, forgot and reset. */
  rateLimitPerMinute: number;
}

/** SPEC §7 Auth: the password sign-in and the local account calls. */
export function registerAccountRoutes(app: FastifyInstance, deps: AccountRouteDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { accounts } = deps;
  const rateLimited = { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: '1 minute' } };

  // Form-encoded, answered as OAuth 2 expects (RFC 6749 §4.3, §5), so no zod body schema here.
  routes.post(
    '/token',
    { config: rateLimited, schema: { response: { 200: tokenResponseSchema } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.grant_type === undefined || body.grant_type === '') {
        throw new OAuthError('invalid_request', accountMessages.missingGrantType);
      }
      if (body.grant_type !== 'password') {
        throw new OAuthError('unsupported_grant_type', accountMessages.unsupportedGrantType);
      }
      const form = signInRequestSchema.safeParse(body);
      if (!form.success) {
        const missing = form.error.issues.some(
          (issue) => issue.message === accountMessages.required,
        );
        throw missing
          ? new OAuthError('invalid_request', accountMessages.missingCredentials)
          : new OAuthError('invalid_grant', accountMessages.invalidGrant);
      }
      return accounts.signIn(form.data, request.ip);
    },
  );

  routes.get(
    '/api/account/userInfo',
    { onRequest: app.requireUserOrExternalSignIn, schema: { response: { 200: userInfoSchema } } },
    (request) => accounts.userInfo(requestCredential(request)),
  );

  routes.post(
    '/api/account/register',
    {
      config: rateLimited,
      schema: { body: registerRequestSchema, response: { 200: registerResponseSchema } },
    },
    (request) => accounts.register(request.body, requestLanguage(request, request.body.lang)),
  );

  routes.post(
    '/api/account/logout',
    { onRequest: app.requireUser, schema: { response: { 200: accountOkSchema } } },
    async (request) => {
      await accounts.logout(signedInUser(request));
      return {};
    },
  );

  routes.get(
    '/api/account/confirmEmail',
    {
      schema: {
        querystring: confirmEmailQuerySchema,
        response: { 200: confirmEmailResponseSchema },
      },
    },
    (request) => accounts.confirmEmail(request.query),
  );

  routes.post(
    '/api/account/forgotpassword',
    {
      config: rateLimited,
      schema: { body: forgotPasswordRequestSchema, response: { 200: accountOkSchema } },
    },
    async (request) => {
      await accounts.forgotPassword(request.body);
      return {};
    },
  );

  routes.post(
    '/api/account/resetpassword',
    {
      config: rateLimited,
      schema: { body: resetPasswordRequestSchema, response: { 200: accountOkSchema } },
    },
    async (request) => {
      await accounts.resetPassword(request.body);
      return {};
    },
  );

  routes.post(
    '/api/account/changePassword',
    {
      onRequest: app.requireUser,
      schema: { body: changePasswordRequestSchema, response: { 200: tokenResponseSchema } },
    },
    (request) => accounts.changePassword(signedInUser(request), request.body),
  );
}
