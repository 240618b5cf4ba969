import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminAuditPageSchema,
  adminAuditQuerySchema,
  adminDisableRequestSchema,
  adminHealthSchema,
  adminOutboxPageSchema,
  adminOutboxQuerySchema,
  adminRoleRequestSchema,
  adminScanPageSchema,
  adminScanQuerySchema,
  adminUserPageSchema,
  adminUserQuerySchema,
  idParamsSchema,
  requeueScanRequestSchema,
  scanListSchema,
  scanSchema,
} from '@linkaudit/core';
import { signedInUser } from '../../plugins/authentication.js';
import type { ScanService } from '../scans/scans.service.js';
import type { AdminService } from './admin.service.js';

/**
 * SPEC §7 Admin (all scans, force to Failed, requeue with edited settings) and the operator's
 * screen of issue 24 (paged scans, users, audit log, health). Admins only; every change audited.
 */
export function registerAdminRoutes(
  app: FastifyInstance,
  deps: { scans: ScanService; admin: AdminService },
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { onRequest: app.requireAdmin };
  for (const path of ['/api/admin/scans/', '/api/admin/scans']) {
    routes.get(path, { ...guarded, schema: { response: { 200: scanListSchema } } }, () =>
      deps.scans.adminList(),
    );
  }
  routes.get(
    '/api/admin/scans/page',
    {
      ...guarded,
      schema: { querystring: adminScanQuerySchema, response: { 200: adminScanPageSchema } },
    },
    (request) => deps.admin.scanPage(request.query),
  );
  routes.put(
    '/api/admin/SetScanStateToFailed/:id',
    { ...guarded, schema: { params: idParamsSchema } },
    async (request) => {
      await deps.admin.setFailed(signedInUser(request), request.params.id);
      return {};
    },
  );
  for (const path of ['/api/admin/Requeue/', '/api/admin/Requeue']) {
    routes.put(
      path,
      { ...guarded, schema: { body: requeueScanRequestSchema, response: { 200: scanSchema } } },
      (request) => deps.admin.requeue(signedInUser(request), request.body),
    );
  }
  registerUserRoutes(app, deps.admin);
  routes.get(
    '/api/admin/audit',
    {
      ...guarded,
      schema: { querystring: adminAuditQuerySchema, response: { 200: adminAuditPageSchema } },
    },
    (request) => deps.admin.auditPage(request.query),
  );
  routes.get(
    '/api/admin/outbox',
    {
      ...guarded,
      schema: { querystring: adminOutboxQuerySchema, response: { 200: adminOutboxPageSchema } },
    },
    (request) => deps.admin.outboxPage(request.query),
  );
  routes.get(
    '/api/admin/health',
    { ...guarded, schema: { response: { 200: adminHealthSchema } } },
    () => deps.admin.health(),
  );
}

function registerUserRoutes(app: FastifyInstance, admin: AdminService): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { onRequest: app.requireAdmin };
  routes.get(
    '/api/admin/users',
    {
      ...guarded,
      schema: { querystring: adminUserQuerySchema, response: { 200: adminUserPageSchema } },
    },
    (request) => admin.userPage(request.query),
  );
  routes.put(
    '/api/admin/users/:id/role',
    { ...guarded, schema: { params: idParamsSchema, body: adminRoleRequestSchema } },
    async (request) => {
      await admin.setAdmin(signedInUser(request), request.params.id, request.body.admin);
      return {};
    },
  );
  routes.put(
    '/api/admin/users/:id/disabled',
    { ...guarded, schema: { params: idParamsSchema, body: adminDisableRequestSchema } },
    async (request) => {
      await admin.setDisabled(signedInUser(request), request.params.id, request.body.disabled);
      return {};
    },
  );
}
