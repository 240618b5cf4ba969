import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, siteWordsSchema } from '@linkaudit/core';
import { signedInUser } from '../../plugins/authentication.js';
import type { SpellingService } from './spelling.service.js';

/**
 * The words to ignore of a scan's site (issue 25): read, add one ("ignore this word" on a
 * spelling finding of the report), remove one. Owners only; the body and query are checked by
 * core's schemas in the service (400 with modelState).
 */
export function registerSpellingRoutes(app: FastifyInstance, spelling: SpellingService): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const path = '/api/report/ignoredWords/:id';
  const response = { 200: siteWordsSchema };
  routes.get(
    path,
    { onRequest: app.requireUser, schema: { params: idParamsSchema, response } },
    (request) => spelling.words(signedInUser(request), request.params.id),
  );
  routes.post(
    path,
    { onRequest: app.requireUser, schema: { params: idParamsSchema, response } },
    (request) => spelling.ignore(signedInUser(request), request.params.id, request.body),
  );
  routes.delete(
    path,
    {
      onRequest: app.requireUser,
      schema: { params: idParamsSchema, querystring: z.object({ word: z.unknown() }), response },
    },
    (request) => spelling.unignore(signedInUser(request), request.params.id, request.query.word),
  );
}
