import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { OutboxService } from '../outbox/outbox.service.js';
import type { OutboxHandler } from '../outbox/outbox-worker.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the mail carries; logged when the mail goes to the outbox folder. */
  link?: string | undefined;
}

/** A mail as the outbox keeps it (its payload_json): what a later delivery needs. */
const storedMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  link: z.string().optional(),
});

/**
 * Mail that survives an SMTP outage and a restart (issue 36): a mail is a row of the outbox,
 * written in the transaction of the change that causes it where there is one, and sent by the
 * outbox worker (outbox-worker.ts) with retries.
 */
export interface Mailer {
  /**
   * Writes the mail to the outbox: in `db` when it is the caller's transaction (then call wake()
   * once it is committed), else on its own, and the worker is woken.
   */
  enqueue(message: MailMessage, db?: Kysely<Database>): Promise<void>;
  /** Tells the outbox worker a mail was committed. */
  wake(): void;
  /**
   * enqueue() without waiting, for a caller with no transaction and no way to wait: a write
   * that fails is logged. Prefer enqueue (its caller knows the mail is kept).
   */
  sendInBackground(message: MailMessage): void;
  /** Mails this process could not send (SMTP refused, folder not writable) since it started. */
  failures?(): MailFailures;
}

export interface MailFailures {
  count: number;
  last: Date | null;
}

export interface MailDeliveryOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where mails go without SMTP: DATA_DIR/mail. */
  outboxDir: string;
  log: FastifyBaseLogger;
}

/** Sends one mail now: through SMTP when configured, else into a folder of .eml files. */
export interface MailDelivery {
  send(message: MailMessage, messageId?: string): Promise<void>;
  failures(): MailFailures;
}

export function createMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const deliver = options.smtpUrl
    ? smtpDelivery(options.smtpUrl, options.from)
    : folderDelivery(options.outboxDir, options.from, options.log);
  const failed: MailFailures = { count: 0, last: null };
  return {
    async send(message, messageId) {
      try {
        await deliver(message, messageId);
      } catch (error) {
        failed.count += 1;
        failed.last = new Date();
        throw error;
      }
    },
    failures: () => ({ ...failed }),
  };
}

/**
 * The outbox's `mail` handler. Each mail keeps one Message-ID across its attempts (from its row),
 * so a receiver can tell a resend after a lost acknowledgement from a new mail.
 */
export function mailHandler(delivery: MailDelivery, publicHost: string): OutboxHandler {
  return (payload, row) =>
    delivery.send(storedMailSchema.parse(payload), `<${row.id}@${publicHost}>`);
}

export function createMailer(deps: {
  outbox: Pick<OutboxService, 'add'>;
  delivery: MailDelivery;
  wakeOutbox: () => void;
  log: FastifyBaseLogger;
}): Mailer {
  const mailer: Mailer = {
    async enqueue(message, db) {
      await deps.outbox.add(
        {
          kind: 'mail',
          recipient: message.to,
          summary: message.subject,
          payload: storedMailSchema.parse(message),
        },
        db,
      );
      if (!db) deps.wakeOutbox();
    },
    wake: deps.wakeOutbox,
    sendInBackground(message) {
      mailer.enqueue(message).catch((error: unknown) => {
        deps.log.error({ err: error, to: message.to }, 'writing mail to the outbox failed');
      });
    },
    failures: () => deps.delivery.failures(),
  };
  return mailer;
}

function smtpDelivery(
  smtpUrl: string,
  from: string,
): (message: MailMessage, messageId?: string) => Promise<void> {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return async (message, messageId) => {
    await transport.sendMail(toNodemailer(message, from, messageId));
  };
}

/**
 * The embedded default: each mail becomes `<time>-<to>.eml` in the outbox folder and its link
 * is logged, so confirmation and reset work on a machine with no mail server.
 */
function folderDelivery(
  outboxDir: string,
  from: string,
  log: FastifyBaseLogger,
): (message: MailMessage, messageId?: string) => Promise<void> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return async (message, messageId) => {
    const info = await composer.sendMail(toNodemailer(message, from, messageId));
    mkdirSync(outboxDir, { recursive: true });
    const time = new Date().toISOString().replaceAll(':', '-');
    const recipient = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
    const file = path.join(outboxDir, `${time}-${recipient}.eml`);
    writeFileSync(file, info.message as Buffer);
    log.info(
      { to: message.to, file, link: message.link },
      `mail "${message.subject}" written to the outbox`,
    );
  };
}

function toNodemailer(message: MailMessage, from: string, messageId: string | undefined) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(messageId ? { messageId } : {}),
  };
}
