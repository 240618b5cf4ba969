import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createScanResponseSchema,
  idParamsSchema,
  scheduledRunListSchema,
  scheduledScanListSchema,
  scheduledScanSchema,
  scheduleScanRequestSchema,
} from '@linkaudit/core';
import { signedInUser } from '../../plugins/authentication.js';
import { requestLanguage } from '../accounts/request-language.js';
import type { ScheduleService } from './schedules.service.js';

export interface ScheduleRouteDeps {
  schedules: ScheduleService;
}

const scheduleIdParams = idParamsSchema;

/** SPEC §7: ScheduleScan (list; create, update, pause, resume, delete) and ScheduledRuns. */
export function registerScheduleRoutes(app: FastifyInstance, deps: ScheduleRouteDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { schedules } = deps;
  const guarded = { onRequest: app.requireUser };

  routes.get(
    '/api/ScanApi/ScheduleScan',
    { ...guarded, schema: { response: { 200: scheduledScanListSchema } } },
    (request) => schedules.list(signedInUser(request), requestLanguage(request)),
  );
  routes.post(
    '/api/ScanApi/ScheduleScan',
    {
      ...guarded,
      schema: {
        body: scheduleScanRequestSchema,
        response: { 200: z.union([scheduledScanSchema, z.object({}).strict()]) },
      },
    },
    (request) => schedules.change(signedInUser(request), request.body, requestLanguage(request)),
  );
  routes.get(
    '/api/ScanApi/ScheduledRuns/:id',
    { ...guarded, schema: { params: scheduleIdParams, response: { 200: scheduledRunListSchema } } },
    (request) => schedules.runs(signedInUser(request), request.params.id),
  );
  routes.post(
    '/api/ScanApi/ScheduledRuns/:id',
    {
      ...guarded,
      schema: { params: scheduleIdParams, response: { 200: createScanResponseSchema } },
    },
    (request) => schedules.runNow(signedInUser(request), request.params.id),
  );
}
