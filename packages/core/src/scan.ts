import { z } from 'zod';
import { invalidScanUrlMessage, scanRequestSchema, scanUrlInputSchema } from './scan-settings.js';

/**
 * Scan contracts of SPEC §3 and §7 (Scans): the scan list, a submission and its answer. The
 * server validates with these schemas and the web app types its fetchers with them.
 */

/**
 * Schedule settings of SPEC §3: frequency 1 daily, 2 weekly, 3 monthly; dailyHour "HH:mm" in UTC;
 * weeklyDay 1 Monday … 7 Sunday; userTimeZoneOffset as `Date.getTimezoneOffset()` (UTC − local,
 * minutes). `timeZone` (IANA, optional, ours) keeps the local hour across daylight-saving changes.
 */
export const scheduleSettingsSchema = z.object({
  frequency: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
  dailyHour: z
    .string()
    .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'dailyHour must be HH:mm')
    .default('09:00'),
  weeklyDay: z.number().int().min(1).max(7).default(1),
  monthlyDay: z.number().int().min(1).max(31).default(1),
  userTimeZoneOffset: z.number().int().min(-1440).max(1440).default(0),
  timeZone: z.string().max(64).optional(),
});
export type ScheduleSettings = z.infer<typeof scheduleSettingsSchema>;

/** One scan as the list shows it: every SPEC §3 field. Dates are ISO strings. */
export const scanSchema = z.object({
  id: z.string(),
  userId: z.string(),
  url: z.string(),
  priority: z.number().int(),
  status: z.number().int(),
  /** Milliseconds. */
  duration: z.number().int(),
  dateCreated: z.string(),
  dateCompleted: z.string().nullable(),
  /** The HTTP status of the start page, when it answered. */
  statusCode: z.number().int().nullable(),
  totalQueuedLinks: z.number().int(),
  /** Scans of this user running now (SPEC §3). */
  inProgressScans: z.number().int(),
  scanType: z.number().int(),
  totalLinks: z.number().int(),
  uniqueLinks: z.number().int(),
  /** Broken link occurrences and URLs, without those the owner ignored (issue 27 triage). */
  badLinks: z.number().int(),
  uniqueBadLinks: z.number().int(),
  /** Broken link occurrences left out of badLinks by the owner's ignore marks. */
  ignoredBadLinks: z.number().int().optional(),
  scanSettings: scanRequestSchema,
  scheduleSettings: scheduleSettingsSchema.nullable(),
  enableSchedule: z.boolean(),
  saveScheduleOnly: z.boolean(),
  sourceScheduleId: z.string().nullable(),
  jobCreated: z.string(),
  jobStarted: z.string().nullable(),
  logMessage: z.string().nullable(),
  /** 1-based place in the queue while Queued (6), else null. */
  queuePosition: z.number().int().nullable(),
});
export type Scan = z.infer<typeof scanSchema>;

export const scanListSchema = z.array(scanSchema);

/** POST /api/ScanApi/: a scan with its settings; `url` may sit at the top or in the settings. */
export const createScanRequestSchema = z.object({
  url: scanUrlInputSchema.optional(),
  scanSettings: scanRequestSchema.optional(),
  scheduleSettings: scheduleSettingsSchema.nullable().optional(),
  enableSchedule: z.boolean().optional().default(false),
  saveScheduleOnly: z.boolean().optional().default(false),
  /** With `enableSchedule`: mail the owner when a run's broken links change (default on). */
  notifyOnChange: z.boolean().optional(),
});
export type CreateScanRequest = z.input<typeof createScanRequestSchema>;
/** A submission as validated once at the edge (defaults applied), typed from there on. */
export type CreateScanSubmission = z.output<typeof createScanRequestSchema>;

/**
 * The answer to a submission: the scan (status 6 with its queue position), or only a status:
 * 12 monthly limit reached, 13 low credit with the URLs left this month.
 */
export const createScanResponseSchema = scanSchema.partial().extend({
  status: z.number().int(),
  queuePosition: z.number().int().nullable().optional(),
  remainingUrls: z.number().int().optional(),
  message: z.string().optional(),
  /** The schedule a submission with `enableSchedule` created. */
  scheduleId: z.string().optional(),
  /** Requested rules the plan does not run (Valid HTML without HTML check), left out of the scan. */
  withheldRules: z.array(z.number().int()).optional(),
});
export type CreateScanResponse = z.infer<typeof createScanResponseSchema>;

/** A scan or schedule id as it arrives in a path or query (ids are UUIDs; older ids fit too). */
export const idSchema = z.string().min(1).max(64);
export const scanIdQuerySchema = z.object({ id: idSchema });
/** `/…/{id}` of every route that names a scan or a schedule in its path. */
export const idParamsSchema = z.object({ id: idSchema });

/** PUT api/admin/Requeue/: the scan, with edited settings when the admin changed them. */
export const requeueScanRequestSchema = z.object({
  id: idSchema,
  scanSettings: scanRequestSchema.optional(),
});
export type RequeueScanRequest = z.input<typeof requeueScanRequestSchema>;

/** GET /reports/BrokenLinksSummary/{id}: the running stats of SPEC §3. */
export const brokenLinksSummarySchema = z.object({
  status: z.number().int(),
  /** Why the scan failed (scan-failures.ts), as the scan's own `logMessage`; null otherwise. */
  logMessage: z.string().nullable().optional(),
  badLinks: z.number().int(),
  uniqueBadLinks: z.number().int(),
  totalLinks: z.number().int(),
  uniqueLinks: z.number().int(),
  reasons: z.array(z.object({ failureReason: z.string(), numberOfReferences: z.number().int() })),
  links: z.array(
    z.object({
      targetUri: z.string(),
      statusCode: z.number().int().nullable(),
      failureReason: z.string().nullable(),
      referenceCount: z.number().int(),
    }),
  ),
});
export type BrokenLinksSummary = z.infer<typeof brokenLinksSummarySchema>;

/** Texts of submission refusals (SPEC §8 shows exceptionMessage as it is). */
export const scanMessages = {
  notFound: 'The scan was not found.',
  cancelNotAllowed: 'The scan is finished or already cancelling.',
  monthlyLimitReached: 'Subcription monthly limit reached',
  /**
   * 403 to a new scan or a schedule's run-now while the account's last payment failed (issue 36):
   * the web app holds such users on /pricing; the API refuses as the plan's other refusals do.
   */
  paymentFailed:
    'Your last payment failed. Update your payment details on the Pricing page to start scans again.',
  /** The answer's `message` when Valid HTML rules were left out (the plan has no HTML check). */
  rulesWithheld:
    'Valid HTML rules were left out: your plan does not include HTML validation. Upgrade to run them.',
  lowCredit: (remaining: number) =>
    `Low Credit Warning: ${remaining} URLs are left this month. Upgrade or lower the scan limit.`,
  invalidUrl: invalidScanUrlMessage,
  privateAddress: (host: string) =>
    `The address ${host} is on a private network and may not be scanned`,
  /**
   * A link found during a scan that the hosted server refused to fetch (its SSRF guard, checked
   * per connection): `target` is host:port, `address` what it is or resolved to.
   */
  privateLink: (target: string, address: string) =>
    `Not checked: ${target} is on a private network (${address}), which this server scans only for allow-listed hosts and ports`,
  /** The start address names a host that does not exist (DNS: no such name). */
  unknownHost: (host: string) => `The site ${host} could not be found. Check the address.`,
} as const;
