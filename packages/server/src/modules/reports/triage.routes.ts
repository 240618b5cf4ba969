import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, siteTriageSchema, triageMarkSchema } from '@linkaudit/core';
import { signedInUser } from '../../plugins/authentication.js';
import type { TriageService } from './triage.service.js';

/**
 * Issue 27 triage of a scan's problems: the site's marks (GET), mark one (PUT: `ignored` with a
 * note, or `willFix`), clear one (DELETE with kind, target and ruleId in the query). Owners
 * only; bodies and queries are checked by core's schemas in the service (400 with modelState).
 */
export function registerTriageRoutes(app: FastifyInstance, triage: TriageService): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const path = '/api/report/triage/:id';
  routes.get(
    path,
    {
      onRequest: app.requireUser,
      schema: {
        params: idParamsSchema,
        querystring: z.record(z.string(), z.unknown()),
        response: { 200: siteTriageSchema },
      },
    },
    (request) => triage.marks(signedInUser(request), request.params.id, request.query),
  );
  routes.put(
    path,
    {
      onRequest: app.requireUser,
      schema: { params: idParamsSchema, response: { 200: triageMarkSchema } },
    },
    (request) => triage.mark(signedInUser(request), request.params.id, request.body),
  );
  routes.delete(
    path,
    {
      onRequest: app.requireUser,
      schema: { params: idParamsSchema, querystring: z.record(z.string(), z.unknown()) },
    },
    async (request, reply) => {
      await triage.clear(signedInUser(request), request.params.id, request.query);
      return reply.status(204).send();
    },
  );
}
