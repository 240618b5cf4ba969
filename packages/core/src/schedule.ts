import { z } from 'zod';
import { scheduleSettingsSchema } from './scan.js';
import { scanRequestSchema, scanUrlInputSchema } from './scan-settings.js';
import { ScanStatus } from './status.js';

/**
 * Scheduled scans of SPEC §3 (Scheduled scan), §4 (7 Paused ↔ 6 Queued) and §7 (ScheduleScan,
 * ScheduledRuns). A schedule's `status` is 6 while it runs on its clock and 7 while paused.
 */
export const ScheduleStatus = { Active: ScanStatus.Queued, Paused: ScanStatus.Paused } as const;

/** One scheduled scan as the schedule list shows it: SPEC §3's fields, then ours. */
export const scheduledScanSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** 6 active, 7 paused. */
  status: z.number().int(),
  dateCreated: z.string(),
  /** When the last run was started (ISO), null before the first. */
  lastRun: z.string().nullable(),
  /** The status code (SPEC §4) of the last run's scan, null before the first. */
  statusCode: z.number().int().nullable(),
  scanType: z.number().int(),
  /** Links checked by the last completed run. */
  totalLinksScanned: z.number().int(),
  scheduleCronExpression: z.string(),
  describedCronExpression: z.string(),
  scheduleSettings: scheduleSettingsSchema,
  scanSettings: scanRequestSchema,
  enabled: z.boolean(),
  runCount: z.number().int(),
  /** Runs skipped because the previous one was still going, or the plan or credit refused. */
  skippedRuns: z.number().int(),
  lastSkipped: z.string().nullable(),
  lastSkipReason: z.string().nullable(),
  nextRun: z.string().nullable(),
  lastScanId: z.string().nullable(),
  /** Mail the owner when a run's broken links differ from the previous run's. */
  notifyOnChange: z.boolean(),
});
export type ScheduledScan = z.infer<typeof scheduledScanSchema>;
export const scheduledScanListSchema = z.array(scheduledScanSchema);

export const scheduleActions = ['create', 'update', 'pause', 'resume', 'delete'] as const;
export type ScheduleAction = (typeof scheduleActions)[number];

/**
 * POST /api/ScanApi/ScheduleScan. Without `id` it creates; with `id`, `action` says what to do,
 * or `status` 7 / 6 pauses / resumes (SPEC §4), or `isDeleted` deletes; otherwise it updates.
 */
export const scheduleScanRequestSchema = z.object({
  id: z.string().max(64).optional(),
  action: z.enum(scheduleActions).optional(),
  status: z.number().int().optional(),
  isDeleted: z.boolean().optional(),
  url: scanUrlInputSchema.optional(),
  scanSettings: scanRequestSchema.optional(),
  scheduleSettings: scheduleSettingsSchema.optional(),
  notifyOnChange: z.boolean().optional(),
});
export type ScheduleScanRequest = z.input<typeof scheduleScanRequestSchema>;

/** Which action a request asks for (see the schema's comment). */
export function scheduleActionOf(
  request: z.infer<typeof scheduleScanRequestSchema>,
): ScheduleAction {
  if (request.action) return request.action;
  if (!request.id) return 'create';
  if (request.isDeleted) return 'delete';
  if (request.status === ScheduleStatus.Paused) return 'pause';
  if (request.status === ScheduleStatus.Active) return 'resume';
  return 'update';
}

/** One completed run in a schedule's history (GET /api/ScanApi/ScheduledRuns/{id}), oldest first. */
export const scheduledRunSchema = z.object({
  scanId: z.string(),
  status: z.number().int(),
  dateCreated: z.string(),
  dateCompleted: z.string().nullable(),
  badLinks: z.number().int(),
  uniqueBadLinks: z.number().int(),
  totalLinks: z.number().int(),
  uniqueLinks: z.number().int(),
  /** Milliseconds. */
  duration: z.number().int(),
  /** Problems this run found that the run before it had not (issue 27); null for the first. */
  newProblems: z.number().int().nullable(),
});
export type ScheduledRun = z.infer<typeof scheduledRunSchema>;
export const scheduledRunListSchema = z.array(scheduledRunSchema);

export const scheduleMessages = {
  created: 'Scheduled scan created',
  notFound: 'The scheduled scan was not found.',
  paidOnly: 'Upgrade to Paid version to unlock this feature',
  allowance: (allowed: number) =>
    `Your plan allows ${allowed} scheduled scans. Delete one or upgrade your plan to add another.`,
  stillRunning: 'The previous run of this schedule is still queued or running.',
  invalidTimeZone: 'The time zone is not known.',
} as const;

/** Why a due run did not start (kept on the schedule as lastSkipReason). */
export const scheduleSkipReasons = {
  stillRunning: 'The previous run was still queued or running.',
  planHasNoSchedules: 'The plan no longer includes scheduled scans.',
  monthlyLimitReached: 'The monthly URL credit was used up.',
  lowCredit: 'The monthly URL credit left was lower than the scan limit.',
  paymentFailed: 'The last payment failed; runs start again once the payment details are updated.',
} as const;
