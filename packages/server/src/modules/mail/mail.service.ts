import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the mail carries; logged when the mail goes to the outbox folder. */
  link?: string;
}

/** Sends mail: through SMTP when configured, else into a folder of .eml files. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Sends without keeping the caller waiting (or telling it about a failure, which is logged). */
  sendInBackground(message: MailMessage): void;
  /** Waits for background sends, e.g. before the process exits. */
  drain(): Promise<void>;
  /** Mails this process could not send (SMTP refused, outbox not writable) since it started. */
  failures?(): MailFailures;
}

export interface MailFailures {
  count: number;
  last: Date | null;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where mails go without SMTP: DATA_DIR/mail. */
  outboxDir: string;
  log: FastifyBaseLogger;
}

export function createMailer(options: MailerOptions): Mailer {
  const deliver = options.smtpUrl
    ? smtpDelivery(options.smtpUrl, options.from)
    : outboxDelivery(options.outboxDir, options.from, options.log);
  const inFlight = new Set<Promise<void>>();
  const failed: MailFailures = { count: 0, last: null };
  const counted = async (message: MailMessage) => {
    try {
      await deliver(message);
    } catch (error) {
      failed.count += 1;
      failed.last = new Date();
      throw error;
    }
  };
  return {
    send: counted,
    failures: () => ({ ...failed }),
    sendInBackground(message) {
      const sending = counted(message)
        .catch((error: unknown) => {
          options.log.error({ err: error, to: message.to }, 'sending mail failed');
        })
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async drain() {
      await Promise.all(inFlight);
    },
  };
}

function smtpDelivery(smtpUrl: string, from: string): (message: MailMessage) => Promise<void> {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return async (message) => {
    await transport.sendMail(toNodemailer(message, from));
  };
}

/**
 * The embedded default: each mail becomes `<time>-<to>.eml` in the outbox folder and its link
 * is logged, so confirmation and reset work on a machine with no mail server.
 */
function outboxDelivery(
  outboxDir: string,
  from: string,
  log: FastifyBaseLogger,
): (message: MailMessage) => Promise<void> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return async (message) => {
    const info = await composer.sendMail(toNodemailer(message, from));
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

function toNodemailer(message: MailMessage, from: string) {
  return { from, to: message.to, subject: message.subject, text: message.text, html: message.html };
}
