import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthcheckSchema, serverVersionSchema } from '@linkaudit/core';
import type { BuildInfo } from '../../build-info.js';
import { isDatabaseReachable, type DatabaseHandle } from '../../db/database.js';

export interface SystemDeps {
  database: DatabaseHandle;
  buildInfo: BuildInfo;
  startedAt: number;
  /** The operator allows private targets (LINKAUDIT_ALLOW_PRIVATE) or allow-lists some hosts. */
  privateTargets: boolean;
  /** Why this server's scans cannot render pages (no Chromium); undefined when they can. */
  renderingUnavailable: string | undefined;
}

/** Version for the footer and a health check for load balancers and operators. */
export function registerSystemRoutes(app: FastifyInstance, deps: SystemDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/ServerVersion', { schema: { response: { 200: serverVersionSchema } } }, () => ({
    ...deps.buildInfo,
    privateTargets: deps.privateTargets,
    ...(deps.renderingUnavailable ? { renderingUnavailable: deps.renderingUnavailable } : {}),
  }));

  routes.get(
    '/healthcheck',
    { schema: { response: { 200: healthcheckSchema, 503: healthcheckSchema } } },
    async (_request, reply) => {
      const reachable = await isDatabaseReachable(deps.database.db);
      return reply.status(reachable ? 200 : 503).send({
        status: reachable ? 'ok' : 'degraded',
        version: deps.buildInfo.version,
        uptimeSeconds: Math.round((Date.now() - deps.startedAt) / 1000),
        database: { reachable, dialect: deps.database.dialect },
      });
    },
  );
}
