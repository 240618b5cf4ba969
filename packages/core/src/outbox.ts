import { z } from 'zod';

/**
 * Durable outgoing messages (issue 36): mail today, webhook deliveries later (issue 38). A row is
 * pending until a worker delivers it (sent), is retried after failures with a growing wait, and
 * is given up (failed) after the configured attempts.
 */
export const outboxStates = ['pending', 'sending', 'sent', 'failed'] as const;
export type OutboxState = (typeof outboxStates)[number];
export const outboxStateSchema = z.enum(outboxStates);

/** What an outbox row carries: its handler is chosen by kind. */
export const outboxKinds = ['mail'] as const;
export type OutboxKind = (typeof outboxKinds)[number];

export const adminOutboxQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  state: outboxStateSchema.optional(),
});
export type AdminOutboxQuery = z.infer<typeof adminOutboxQuerySchema>;

/** One outgoing message as the operator's screen lists it (the body is not shown). */
export const adminOutboxRowSchema = z.object({
  id: z.string(),
  kind: z.string(),
  /** Where it goes: a mail's recipient (a webhook's address later). */
  recipient: z.string(),
  /** What it is: a mail's subject. */
  summary: z.string(),
  state: outboxStateSchema,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type AdminOutboxRow = z.infer<typeof adminOutboxRowSchema>;

export const adminOutboxPageSchema = z.object({
  total: z.number().int(),
  rows: z.array(adminOutboxRowSchema),
});
export type AdminOutboxPage = z.infer<typeof adminOutboxPageSchema>;
