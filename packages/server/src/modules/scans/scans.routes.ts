import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type CreateScanResponse,
  type CreateScanSubmission,
  createScanRequestSchema,
  createScanResponseSchema,
  scanIdQuerySchema,
  scanListSchema,
  scanSchema,
} from '@linkaudit/core';
import { signedInUser, type SignedInUser } from '../../plugins/authentication.js';
import { scanRules } from './scan-rules.js';
import type { ScanService } from './scans.service.js';

export interface ScanRouteDeps {
  scans: ScanService;
  /** POST /api/ScanApi/ with `enableSchedule`: a schedule too (the schedules module). */
  submitScheduled: (
    user: SignedInUser,
    request: CreateScanSubmission,
  ) => Promise<CreateScanResponse>;
}

/** SPEC §7 Scans: list, create, cancel, delete, rules. Owners only (else 404). */
export function registerScanRoutes(app: FastifyInstance, deps: ScanRouteDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { scans } = deps;
  const guarded = { onRequest: app.requireUser };

  routes.get(
    '/api/ScanApi/Get',
    { ...guarded, schema: { response: { 200: scanListSchema } } },
    (request) => scans.list(signedInUser(request)),
  );
  for (const path of ['/api/ScanApi/', '/api/ScanApi']) {
    routes.post(
      path,
      {
        ...guarded,
        schema: { body: createScanRequestSchema, response: { 200: createScanResponseSchema } },
      },
      // The body is parsed once, here; a scan alone or with a schedule, typed from here on.
      (request) =>
        request.body.enableSchedule
          ? deps.submitScheduled(signedInUser(request), request.body)
          : scans.create(signedInUser(request), request.body),
    );
    routes.delete(
      path,
      { ...guarded, schema: { querystring: scanIdQuerySchema, response: { 200: scanSchema } } },
      (request) => scans.cancel(signedInUser(request), request.query.id),
    );
  }
  routes.delete(
    '/api/ScanApi/Trash',
    { ...guarded, schema: { querystring: scanIdQuerySchema } },
    async (request) => {
      await scans.trash(signedInUser(request), request.query.id);
      return {};
    },
  );
  for (const path of ['/api/ScanRuleApi/', '/api/ScanRuleApi']) {
    routes.get(path, guarded, () => scanRules());
  }
}
