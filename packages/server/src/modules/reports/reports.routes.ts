import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  brokenLinksSummarySchema,
  idParamsSchema,
  inclusionReportQuerySchema,
  reportPdfQuerySchema,
  reportQuerySchema,
  reportSummarySchema,
  ruleCountsQuerySchema,
  ruleCountsReportSchema,
  ruleGroupsQuerySchema,
  ruleGroupsReportSchema,
  ruleReportQuerySchema,
  sampleSiteScanIdSchema,
  scanChangesQuerySchema,
  scanChangesSchema,
  type ReportQuery,
  type ReportTab,
} from '@linkaudit/core';
import { requestLanguage } from '../accounts/request-language.js';
import { signedInUser, type SignedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import {
  HeavyReadAbandoned,
  HeavyReadRefused,
  type HeavyReadGate,
  type ReleaseHeavyRead,
} from './heavy-reads.js';
import type { ReportService } from './reports.service.js';
import { registerRulePageRoute } from './rule-pages.js';

export interface ReportRouteDeps {
  reports: ReportService;
  /** Report tabs and summaries being computed, per user. */
  heavyReads: HeavyReadGate;
  /**
   * CSV exports, per user, apart: an export holds its place for its whole download (minutes for a
   * big scan), and a user downloading one must still be able to read the report.
   */
  exportReads: HeavyReadGate;
}

/** Who a heavy read counts against: the signed-in user, else (the public sample) the address. */
function readerOf(request: FastifyRequest, user: SignedInUser | null): string {
  return user ? `user:${user.id}` : `address:${request.ip}`;
}

/** Aborts when the client goes away before its answer was sent. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

export function tooManyReportReadsMessage(seconds: number): string {
  return `Too many report requests at once. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
}

/**
 * A place among the reader's heavy reads, or the refusal: 429 with Retry-After in SPEC's error
 * shape. Null when the client went away while waiting: nothing is to be answered.
 */
async function heavyReadPlace(
  limiter: HeavyReadGate,
  reader: string,
  reply: FastifyReply,
): Promise<ReleaseHeavyRead | null> {
  try {
    return await limiter.acquire(reader, clientGone(reply));
  } catch (error) {
    if (error instanceof HeavyReadAbandoned) return null;
    if (error instanceof HeavyReadRefused) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
      throw new HttpError(429, tooManyReportReadsMessage(error.retryAfterSeconds));
    }
    throw error;
  }
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

/** The client left while its read waited: no answer is sent (its socket is gone). */
function abandon(reply: FastifyReply): FastifyReply {
  reply.hijack();
  reply.raw.destroy();
  return reply;
}

/**
 * SPEC §7 Reports: summary, the four tabs (JSON or `format=csv`), the sample scan's id, and the
 * live broken-links summary of a running scan (owners only).
 */
export function registerReportRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { reports, heavyReads, exportReads } = deps;

  routes.get(
    '/api/report/summary/:id',
    { schema: { params: idParams, response: { 200: reportSummarySchema } } },
    async (request, reply) => {
      const user = await optionalUser(app, request, reply);
      // Computing (or joining) the figures takes a heavy-read place; kept figures do not.
      const place = async () => {
        const release = await heavyReadPlace(heavyReads, readerOf(request, user), reply);
        if (!release) throw new HeavyReadAbandoned();
        return release;
      };
      try {
        return await reports.summary(user, request.params.id, place);
      } catch (error) {
        if (error instanceof HeavyReadAbandoned) return abandon(reply);
        throw error;
      }
    },
  );

  // Issue 27: what changed since the site's previous scan (new, still, fixed, removed), owners
  // only; as CSV with format=csv (issue 37).
  routes.get(
    '/api/report/changes/:id',
    {
      schema: {
        params: idParams,
        querystring: scanChangesQuerySchema,
        response: { 200: scanChangesSchema },
      },
    },
    async (request, reply) => {
      const user = await optionalUser(app, request, reply);
      const csv = request.query.format === 'csv';
      const release = await heavyReadPlace(
        csv ? exportReads : heavyReads,
        readerOf(request, user),
        reply,
      );
      if (!release) return abandon(reply);
      if (!csv) {
        try {
          return await reports.changes(user, request.params.id, request.query);
        } finally {
          release();
        }
      }
      reply.raw.once('close', release);
      try {
        const { fileName, chunks } = await reports.changesCsv(
          user,
          request.params.id,
          request.query,
        );
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${fileName}"`)
            // A stream is piped as it is: the JSON answer's schema is not applied to it.
            .send(Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 }) as never)
        );
      } catch (error) {
        release();
        throw error;
      }
    },
  );

  const tabs = {
    link: (user: SignedInUser | null, id: string, query: ReportQuery) =>
      reports.links(user, id, query),
    page: (user: SignedInUser | null, id: string, query: ReportQuery) =>
      reports.pages(user, id, query),
    ruleResult: (user: SignedInUser | null, id: string, query: ReportQuery) =>
      reports.rules(user, id, query),
    fileType: (user: SignedInUser | null, id: string, query: ReportQuery) =>
      reports.fileTypes(user, id, query),
    duplicateAnchor: (user: SignedInUser | null, id: string, query: ReportQuery) =>
      reports.duplicateAnchors(user, id, query),
    pageInclusion: (user: SignedInUser | null, id: string, query: ReportQuery) =>
      reports.pageInclusion(user, id, query),
  } as const satisfies Record<ReportTab, unknown>;
  const querySchemas: Partial<Record<ReportTab, typeof reportQuerySchema>> = {
    ruleResult: ruleReportQuerySchema,
    pageInclusion: inclusionReportQuerySchema,
  };
  for (const [tab, read] of Object.entries(tabs) as Array<
    [keyof typeof tabs, (typeof tabs)[keyof typeof tabs]]
  >) {
    routes.get(
      `/api/report/${tab}/:id`,
      {
        schema: {
          params: idParams,
          querystring: querySchemas[tab] ?? reportQuerySchema,
        },
      },
      async (request, reply) => {
        const user = await optionalUser(app, request, reply);
        const limiter = request.query.format === 'csv' ? exportReads : heavyReads;
        const release = await heavyReadPlace(limiter, readerOf(request, user), reply);
        if (!release) return abandon(reply);
        if (request.query.format !== 'csv') {
          try {
            return await read(user, request.params.id, request.query);
          } finally {
            release();
          }
        }
        // The export holds its place until the response ends or its client goes away.
        reply.raw.once('close', release);
        try {
          const { fileName, chunks } = await reports.csv(
            user,
            request.params.id,
            tab,
            request.query,
          );
          // Piped with backpressure (the next chunk is read once the socket drained); a client
          // that goes away destroys the stream, which ends the generator and so the statement.
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${fileName}"`)
            .send(Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 }));
        } catch (error) {
          release();
          throw error;
        }
      },
    );
  }

  // The rule tab's grouped view (issue 25): counts per rule, then a rule's groups of identical
  // findings; a group's rows are the rule tab's call with `ruleId` and `group`.
  routes.get(
    '/api/report/ruleCounts/:id',
    {
      schema: {
        params: idParams,
        querystring: ruleCountsQuerySchema,
        response: { 200: ruleCountsReportSchema },
      },
    },
    async (request, reply) => {
      const user = await optionalUser(app, request, reply);
      const release = await heavyReadPlace(heavyReads, readerOf(request, user), reply);
      if (!release) return abandon(reply);
      try {
        return await reports.ruleCounts(user, request.params.id, request.query);
      } finally {
        release();
      }
    },
  );
  routes.get(
    '/api/report/ruleGroups/:id',
    {
      schema: {
        params: idParams,
        querystring: ruleGroupsQuerySchema,
        response: { 200: ruleGroupsReportSchema },
      },
    },
    async (request, reply) => {
      const user = await optionalUser(app, request, reply);
      const release = await heavyReadPlace(heavyReads, readerOf(request, user), reply);
      if (!release) return abandon(reply);
      try {
        return await reports.ruleGroups(user, request.params.id, request.query);
      } finally {
        release();
      }
    },
  );
  routes.get(
    '/api/report/pdf/:id',
    { schema: { params: idParams, querystring: reportPdfQuerySchema } },
    async (request, reply) => {
      const user = await optionalUser(app, request, reply);
      // A PDF holds an export place for its whole download, as a CSV export does.
      const release = await heavyReadPlace(exportReads, readerOf(request, user), reply);
      if (!release) return abandon(reply);
      reply.raw.once('close', release);
      try {
        const language = request.query.lang ?? requestLanguage(request);
        const { fileName, chunks } = await reports.pdf(user, request.params.id, language);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${fileName}"`)
          .header('cache-control', 'private, no-store')
          .send(Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 }));
      } catch (error) {
        release();
        throw error;
      }
    },
  );

  registerRulePageRoute(app);

  routes.get(
    '/api/report/SampleSiteScanId',
    { schema: { response: { 200: sampleSiteScanIdSchema } } },
    () => reports.sampleSiteScanId(),
  );

  routes.get(
    '/reports/BrokenLinksSummary/:id',
    {
      onRequest: app.requireUser,
      schema: {
        params: idParams,
        response: { 200: brokenLinksSummarySchema },
      },
    },
    (request) => reports.brokenLinksSummary(signedInUser(request), request.params.id),
  );
}
