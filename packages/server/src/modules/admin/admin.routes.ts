import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  requeueScanRequestSchema,
  scanListSchema,
  scanSchema,
} from '@linkaudit/core';
import { signedInUser } from '../../plugins/authentication.js';
import type { ScanService } from '../scans/scans.service.js';

/** SPEC §7 Admin: all users' scans, force to Failed, requeue (with edited settings). Admins only. */
export function registerAdminRoutes(app: FastifyInstance, deps: { scans: ScanService }): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { onRequest: app.requireAdmin };
  for (const path of ['/api/admin/scans/', '/api/admin/scans']) {
    routes.get(path, { ...guarded, schema: { response: { 200: scanListSchema } } }, () =>
      deps.scans.adminList(),
    );
  }
  routes.put(
    '/api/admin/SetScanStateToFailed/:id',
    { ...guarded, schema: { params: idParamsSchema } },
    async (request) => {
      await deps.scans.adminSetFailed(signedInUser(request), request.params.id);
      return {};
    },
  );
  for (const path of ['/api/admin/Requeue/', '/api/admin/Requeue']) {
    routes.put(
      path,
      { ...guarded, schema: { body: requeueScanRequestSchema, response: { 200: scanSchema } } },
      async (request) => (await deps.scans.adminRequeue(signedInUser(request), request.body)).after,
    );
  }
}
