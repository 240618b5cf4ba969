import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  idParamsSchema,
  reportQuerySchema,
  reportSummarySchema,
  ruleReportQuerySchema,
  sampleSiteScanIdSchema,
} from '@linkaudit/core';
import type { SignedInUser } from '../../plugins/authentication.js';
import type { ReportService } from './reports.service.js';

export interface ReportRouteDeps {
  reports: ReportService;
}

const idParams = idParamsSchema;

/** The signed-in user when a valid token came, else null (the sample report is public). */
async function optionalUser(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SignedInUser | null> {
  if (!request.headers.authorization) return null;
  await app.requireUser(request, reply);
  return request.user;
}

/** SPEC §7 Reports: summary, the four tabs (JSON or `format=csv`) and the sample scan's id. */
export function registerReportRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { reports } = deps;

  routes.get(
    '/api/report/summary/:id',
    { schema: { params: idParams, response: { 200: reportSummarySchema } } },
    async (request, reply) =>
      reports.summary(await optionalUser(app, request, reply), request.params.id),
  );

  const tabs = {
    link: (user: SignedInUser | null, id: string, query: z.infer<typeof reportQuerySchema>) =>
      reports.links(user, id, query),
    page: (user: SignedInUser | null, id: string, query: z.infer<typeof reportQuerySchema>) =>
      reports.pages(user, id, query),
    ruleResult: (user: SignedInUser | null, id: string, query: z.infer<typeof reportQuerySchema>) =>
      reports.rules(user, id, query),
    fileType: (user: SignedInUser | null, id: string, query: z.infer<typeof reportQuerySchema>) =>
      reports.fileTypes(user, id, query),
  } as const;
  for (const [tab, read] of Object.entries(tabs) as Array<
    [keyof typeof tabs, (typeof tabs)[keyof typeof tabs]]
  >) {
    routes.get(
      `/api/report/${tab}/:id`,
      {
        schema: {
          params: idParams,
          querystring: tab === 'ruleResult' ? ruleReportQuerySchema : reportQuerySchema,
        },
      },
      async (request, reply) => {
        const user = await optionalUser(app, request, reply);
        if (request.query.format === 'csv') {
          const { fileName, csv } = await reports.csv(user, request.params.id, tab, request.query);
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${fileName}"`)
            .send(csv);
        }
        return read(user, request.params.id, request.query);
      },
    );
  }

  routes.get(
    '/api/report/SampleSiteScanId',
    { schema: { response: { 200: sampleSiteScanIdSchema } } },
    () => reports.sampleSiteScanId(),
  );
}
