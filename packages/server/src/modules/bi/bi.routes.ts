import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  biAccessTokenListSchema,
  biAccessTokenPrefix,
  biExportSchema,
  biFeedMaxPageSize,
  biMessages,
  biTokenParamsSchema,
  createBiAccessTokenSchema,
  createdBiAccessTokenSchema,
  idParamsSchema,
} from '@linkaudit/core';
import { signedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import {
  HeavyReadAbandoned,
  HeavyReadRefused,
  type HeavyReadGate,
  type ReleaseHeavyRead,
} from '../reports/heavy-reads.js';
import { tooManyReportReadsMessage } from '../reports/reports.routes.js';
import type { BiReader, BiService, FeedPage } from './bi.service.js';
import { isEntitySet, metadataDocument } from './odata-model.js';
import { ODataQueryError } from './odata-query.js';

export interface BiRouteDeps {
  bi: BiService;
  /**
   * The per-user limit of report reads (reports.routes.ts): a feed page or count is one, so a
   * workbook refreshing many tables at once cannot hold every read connection.
   */
  heavyReads: HeavyReadGate;
}

/** OData v4 JSON answers (Part 1 §8.1.1, JSON Format §3). */
const odataJson = 'application/json;odata.metadata=minimal;odata.streaming=true;charset=utf-8';
const feedParams = z.object({ scanId: idParamsSchema.shape.id, '*': z.string().optional() });

/** The token a request presents: Basic's password (or its user name when empty), or Bearer. */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [user, password] =
    colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  return password || user || undefined;
}

/** OData's error body (JSON Format §21): `{ error: { code, message } }`. */
function odataError(reply: FastifyReply, status: number, code: string, message: string) {
  if (status === 401) {
    void reply.header('www-authenticate', 'Basic realm="LinkAudit", charset="UTF-8"');
  }
  return reply
    .status(status)
    .header('odata-version', '4.0')
    .header('content-type', odataJson)
    .send(JSON.stringify({ error: { code, message } }));
}

const errorCodes: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  429: 'TooManyRequests',
  501: 'NotImplemented',
};

/** `Prefer: odata.maxpagesize=n` (Part 1 §8.2.8.6), when it asks for a positive page size. */
function preferredPageSize(request: FastifyRequest): number | undefined {
  const prefer = request.headers.prefer;
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  const match = /(?:^|[,;\s])odata\.maxpagesize\s*=\s*"?(\d{1,9})"?/i.exec(text);
  const size = match ? Number(match[1]) : undefined;
  return size && size > 0 ? size : undefined;
}

/** The page as JSON text, produced as its rows come from the database. */
async function* feedJson(page: FeedPage): AsyncGenerator<string> {
  let head = `{"@odata.context":${JSON.stringify(page.contextUrl)}`;
  if (page.count !== undefined) head += `,"@odata.count":${page.count}`;
  yield `${head},"value":[`;
  let sent = 0;
  let chunk = '';
  for await (const row of page.rows) {
    chunk += (sent === 0 ? '' : ',') + JSON.stringify(row);
    sent += 1;
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  const next = page.nextLink(sent);
  yield `${chunk}]${next ? `,"@odata.nextLink":${JSON.stringify(next)}` : ''}}`;
}

/**
 * The BI export: access tokens (/api/bi/tokens, signed in), the export description and the
 * `.pbids` file (`/PowerBi/ExportScan/{scanId}`, SPEC §7), and the read-only OData v4 feed of a
 * scan at `/PowerBi/odata/{scanId}/`, opened by an access token only.
 */
export async function registerBiRoutes(app: FastifyInstance, deps: BiRouteDeps): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { bi, heavyReads } = deps;

  routes.get(
    '/api/bi/tokens',
    { onRequest: app.requireUser, schema: { response: { 200: biAccessTokenListSchema } } },
    (request) => bi.listTokens(signedInUser(request)),
  );
  routes.post(
    '/api/bi/tokens',
    {
      onRequest: app.requireUser,
      schema: { body: createBiAccessTokenSchema, response: { 201: createdBiAccessTokenSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await bi.createToken(signedInUser(request), request.body)),
  );
  routes.delete(
    '/api/bi/tokens/:id',
    { onRequest: app.requireUser, schema: { params: biTokenParamsSchema } },
    async (request, reply) => {
      await bi.revokeToken(signedInUser(request), request.params.id);
      return reply.status(204).send();
    },
  );
  routes.get(
    '/api/bi/export/:id',
    {
      onRequest: app.requireUser,
      schema: { params: idParamsSchema, response: { 200: biExportSchema } },
    },
    (request) => bi.exportInfo(signedInUser(request).id, request.params.id),
  );

  // The .pbids file: for the signed-in owner (the report's button) or an access token.
  routes.get(
    '/PowerBi/ExportScan/:id',
    { schema: { params: idParamsSchema } },
    async (request, reply) => {
      const token = presentedToken(request);
      let userId: string;
      if (token?.startsWith(biAccessTokenPrefix)) {
        const reader = await bi.authenticate(token);
        if (!reader) {
          void reply.header('www-authenticate', 'Basic realm="LinkAudit", charset="UTF-8"');
          throw new HttpError(401, biMessages.feedUnauthorized);
        }
        userId = reader.userId;
      } else {
        await app.requireUser(request, reply);
        userId = signedInUser(request).id;
      }
      const file = await bi.pbids(userId, request.params.id);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );

  await app.register((scope, _options, done) => {
    registerFeed(scope, bi, heavyReads);
    done();
  });
}

/**
 * A place among the token owner's report reads (the same per-user limit as report tabs), or a
 * 429 OData error with Retry-After; null when the client went away while waiting.
 */
async function feedReadPlace(
  limiter: HeavyReadGate,
  who: BiReader,
  reply: FastifyReply,
): Promise<ReleaseHeavyRead | null> {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  try {
    return await limiter.acquire(`user:${who.userId}`, controller.signal);
  } catch (error) {
    if (error instanceof HeavyReadAbandoned) return null;
    if (error instanceof HeavyReadRefused) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
      throw new HttpError(429, tooManyReportReadsMessage(error.retryAfterSeconds));
    }
    throw error;
  }
}

/** The feed in a scope of its own: every refusal there is an OData error body. */
function registerFeed(scope: FastifyInstance, bi: BiService, heavyReads: HeavyReadGate): void {
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ODataQueryError || error instanceof HttpError) {
      return odataError(
        reply,
        error.statusCode,
        errorCodes[error.statusCode] ?? 'Error',
        error.message,
      );
    }
    if (error.validation) return odataError(reply, 400, 'BadRequest', 'The request is invalid.');
    request.log.error({ err: error }, 'OData feed request failed');
    return odataError(reply, 500, 'InternalError', 'An error occurred on the server.');
  });

  const reader = async (request: FastifyRequest): Promise<BiReader> => {
    const token = presentedToken(request);
    const found = token ? await bi.authenticate(token) : null;
    if (!found) throw new HttpError(401, biMessages.feedUnauthorized);
    return found;
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = feedParams.parse(request.params);
    const who = await reader(request);
    const query = request.query as Record<string, unknown>;
    void reply.header('odata-version', '4.0');
    const resource = (params['*'] ?? '').replace(/\/+$/, '');
    if (resource === '') {
      await bi.checkFeedScan(who, params.scanId);
      return reply
        .header('content-type', odataJson)
        .send(JSON.stringify(bi.serviceDocument(params.scanId)));
    }
    if (resource === '$metadata') {
      await bi.checkFeedScan(who, params.scanId);
      return reply.header('content-type', 'application/xml;charset=utf-8').send(metadataDocument());
    }
    const [setName, segment, ...rest] = resource.split('/');
    if (!setName || !isEntitySet(setName) || rest.length > 0 || (segment && segment !== '$count')) {
      throw new ODataQueryError(`No resource '${resource}' in this service.`, 404);
    }
    const release = await feedReadPlace(heavyReads, who, reply);
    if (!release) {
      reply.hijack();
      reply.raw.destroy();
      return reply;
    }
    if (segment === '$count') {
      try {
        const count = await bi.count(who, params.scanId, setName, query);
        return reply.header('content-type', 'text/plain;charset=utf-8').send(String(count));
      } finally {
        release();
      }
    }
    // A page holds its place until its answer has been sent (or its client has gone).
    reply.raw.once('close', release);
    const maxPageSize = preferredPageSize(request);
    let page: FeedPage;
    try {
      page = await bi.feedPage(who, params.scanId, setName, query, maxPageSize);
    } catch (error) {
      release();
      throw error;
    }
    if (maxPageSize) {
      void reply.header(
        'preference-applied',
        `odata.maxpagesize=${Math.min(maxPageSize, biFeedMaxPageSize)}`,
      );
    }
    return reply
      .header('content-type', odataJson)
      .send(Readable.from(feedJson(page), { objectMode: false }));
  };
  // The params are validated before the handler (a bad scan id is a 400, not a thrown ZodError).
  scope.get('/PowerBi/odata/:scanId', { schema: { params: feedParams } }, handler);
  scope.get('/PowerBi/odata/:scanId/*', { schema: { params: feedParams } }, handler);
}
