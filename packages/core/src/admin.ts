import { z } from 'zod';
import { scanSchema } from './scan.js';

/**
 * Contracts of the operator's side (SPEC §2 /admin, §4, §6 Admin; issue 24): the paged scan list,
 * users, the audit log and health. SPEC's three admin calls keep their shapes (scan.ts).
 */

const pageQuery = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
};

/**
 * The "address" of the account that owns the sample report's scan (server: sample-report). It
 * has no @, so nobody can register or sign in as it; screens show a name for it instead.
 */
export const sampleReportOwnerEmail = 'system:sample-report';

export const adminScanSortKeys = [
  'dateCreated',
  'status',
  'priority',
  'url',
  'owner',
  'attempts',
  'jobStarted',
  'duration',
] as const;

/** GET /api/admin/scans/page: every user's scans, paged, sorted and filtered on the server. */
export const adminScanQuerySchema = z.object({
  ...pageQuery,
  sortBy: z.enum(adminScanSortKeys).default('dateCreated'),
  /** One or more status codes, comma-separated (`5,8,9,11`). */
  status: z
    .string()
    .max(64)
    .regex(/^\d{1,2}(,\d{1,2})*$/, 'status must be status codes separated by commas')
    .optional(),
  /** Part of the owner's e-mail address (case-insensitive). */
  owner: z.string().trim().max(254).optional(),
  /** Part of the scanned URL (case-insensitive). */
  url: z.string().trim().max(2048).optional(),
});
export type AdminScanQuery = z.input<typeof adminScanQuerySchema>;

/** A scan as the operator sees it: SPEC's fields plus owner, worker and attempts. */
export const adminScanSchema = scanSchema.extend({
  ownerEmail: z.string(),
  /** The process holding the lease (`<worker id>:<pid>:<boot>`), while a worker runs it. */
  worker: z.string().nullable(),
  attempts: z.number().int(),
  /** `requeue` or `fail` while an administrator's stop of the running attempt is pending. */
  stopAction: z.string().nullable(),
});
export type AdminScan = z.infer<typeof adminScanSchema>;

export const adminScanPageSchema = z.object({
  total: z.number().int(),
  rows: z.array(adminScanSchema),
});
export type AdminScanPage = z.infer<typeof adminScanPageSchema>;

export const adminUserSortKeys = ['created', 'email', 'lastSignIn', 'plan', 'creditUsed'] as const;

/** GET /api/admin/users: users with plan, billing state, credit used, role and sign-in times. */
export const adminUserQuerySchema = z.object({
  ...pageQuery,
  sortBy: z.enum(adminUserSortKeys).default('created'),
  /** Part of the e-mail address or name (case-insensitive). */
  search: z.string().trim().max(254).optional(),
});
export type AdminUserQuery = z.input<typeof adminUserQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  paidPlanId: z.string(),
  /** Billing state: none, trialing, active, past_due, canceled… (the subscription's). */
  subscriptionStatus: z.string().nullable(),
  trialEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** Unique URLs of finished scans in the current credit period, and the plan's allowance. */
  creditUsed: z.number().int(),
  creditLimit: z.number().int(),
  /** `admin` or `user`; `adminByConfig` when ADMIN_EMAILS makes the address an admin. */
  role: z.enum(['admin', 'user']),
  adminByConfig: z.boolean(),
  created: z.string(),
  lastSignIn: z.string().nullable(),
  disabled: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserPageSchema = z.object({
  total: z.number().int(),
  rows: z.array(adminUserSchema),
});
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

/** PUT /api/admin/users/{id}/role and /disabled. */
export const adminRoleRequestSchema = z.object({ admin: z.boolean() });
export const adminDisableRequestSchema = z.object({ disabled: z.boolean() });

/** GET /api/admin/audit: newest first, optionally for one target (a scan, user or voucher). */
export const adminAuditQuerySchema = z.object({
  page: pageQuery.page,
  pageSize: pageQuery.pageSize,
  target: z.string().trim().max(254).optional(),
});

export const adminAuditEntrySchema = z.object({
  id: z.string(),
  adminId: z.string(),
  adminEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  at: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

export const adminAuditPageSchema = z.object({
  total: z.number().int(),
  rows: z.array(adminAuditEntrySchema),
});
export type AdminAuditPage = z.infer<typeof adminAuditPageSchema>;

/** The audit log's action names. */
export const adminActions = {
  setFailed: 'scan.setFailed',
  requeue: 'scan.requeue',
  editSettings: 'scan.editSettings',
  grantAdmin: 'user.grantAdmin',
  revokeAdmin: 'user.revokeAdmin',
  disable: 'user.disable',
  enable: 'user.enable',
  createVoucher: 'voucher.create',
  expireVoucher: 'voucher.expire',
} as const;

/** GET /api/admin/health: the figures /metrics also exports. */
export const adminHealthSchema = z.object({
  /** Scans (not trashed) per status code. */
  queueDepth: z.array(z.object({ status: z.number().int(), count: z.number().int() })),
  /** Scans held per worker process (lease owner). */
  runningByWorker: z.array(z.object({ worker: z.string(), count: z.number().int() })),
  /** In the last 24 h: leases that ran out, and scans that went back to the queue. */
  leaseExpiries24h: z.number().int(),
  requeues24h: z.number().int(),
  /** The scheduler's last tick (any process), or null when none was recorded. */
  schedulerLastTick: z.string().nullable(),
  /** When the longest-waiting queued scan was queued (its age is the queue's), or null. */
  oldestQueuedAt: z.string().nullable(),
  /** Queued scans waiting out a retry's backoff (issue 36: lost lease, engine exception). */
  waitingForRetry: z.number().int(),
  /** Outgoing messages (mail) not yet sent, and those given up after every attempt. */
  outboxPending: z.number().int(),
  outboxFailed: z.number().int(),
  /** Mails that could not be sent (outbox failures) since this process started, and the last. */
  mailFailures: z.number().int(),
  lastMailFailure: z.string().nullable(),
});
export type AdminHealth = z.infer<typeof adminHealthSchema>;

/** Texts of the admin API's refusals. */
export const adminMessages = {
  /** The log message of a scan an administrator set to Failed. */
  setFailedLog: 'Set to Failed by an administrator.',
  busy: 'The scan changed while it was being updated. Please try again.',
  notFoundUser: 'The user was not found.',
  ownAdminRole: 'You cannot remove your own administrator role.',
  ownAccount: 'You cannot disable your own account.',
  configAdmin: 'This address is an administrator through ADMIN_EMAILS; change the setting instead.',
  accountDisabled: 'This account has been disabled. Please contact support.',
  voucherNotFound: 'The voucher was not found.',
  metricsToken: 'A valid metrics token is required.',
  metricsLoopback: 'Metrics are served only to this machine unless METRICS_TOKEN is set.',
} as const;
