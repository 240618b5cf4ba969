import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { accountLanguages } from '@linkaudit/core';
import { firstLink, parseMail } from '../../test-support/mime.js';
import { startSmtpCapture, type SmtpCapture } from '../../test-support/smtp-capture.js';
import { createMailDelivery } from './mail.service.js';
import { describeDuration, mailTexts, renderMail } from './mail.templates.js';

/** A logger that keeps what it was told. */
function recordingLogger(): FastifyBaseLogger & { lines: unknown[][] } {
  const lines: unknown[][] = [];
  const record = (...args: unknown[]) => void lines.push(args);
  const logger = {
    lines,
    level: 'info',
    info: record,
    error: record,
    warn: record,
    debug: record,
    trace: record,
    fatal: record,
    silent: record,
    child: () => logger,
  };
  return logger as FastifyBaseLogger & { lines: unknown[][] };
}

const message = {
  to: 'reader@example.com',
  subject: '确认您的 LinkAudit 账户',
  text: 'Open http://localhost:3000/confirmemail?code=abc&userId=u1 please',
  html: '<p>Open</p>',
  link: 'http://localhost:3000/confirmemail?code=abc&userId=u1',
};

describe('mail without SMTP: the outbox folder', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'linkaudit-mail-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes each mail as <time>-<to>.eml and logs its link', async () => {
    const log = recordingLogger();
    const outboxDir = path.join(dataDir, 'mail');
    const delivery = createMailDelivery({
      smtpUrl: undefined,
      from: 'LinkAudit <no-reply@localhost>',
      outboxDir,
      log,
    });
    await delivery.send(message);
    const [file, ...others] = readdirSync(outboxDir);
    expect(others).toEqual([]);
    expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-reader@example\.com\.eml$/);
    const mail = parseMail(readFileSync(path.join(outboxDir, file ?? ''), 'utf8'));
    expect(mail.subject).toBe(message.subject);
    expect(mail.headers.from).toBe('LinkAudit <no-reply@localhost>');
    expect(firstLink(mail.text)).toBe(message.link);
    expect(JSON.stringify(log.lines)).toContain(message.link);
  });
});

describe('mail through SMTP', () => {
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
  });
  afterAll(() => smtp.stop());

  it('delivers to the SMTP server of SMTP_URL', async () => {
    const delivery = createMailDelivery({
      smtpUrl: smtp.url,
      from: 'no-reply@linkaudit.test',
      outboxDir: '/nonexistent',
      log: recordingLogger(),
    });
    await delivery.send(message, '<outbox-1@linkaudit.test>');
    const mail = await smtp.nextMailTo('reader@example.com');
    expect(mail.subject).toBe(message.subject);
    expect(mail.html).toBe('<p>Open</p>');
    // One Message-ID per outbox row, kept across its attempts.
    expect(mail.headers['message-id']).toBe('<outbox-1@linkaudit.test>');
  });

  it('rejects a send the server refuses and counts it (the outbox then retries)', async () => {
    const delivery = createMailDelivery({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'x@y.z',
      outboxDir: '/nonexistent',
      log: recordingLogger(),
    });
    await expect(delivery.send(message)).rejects.toThrow();
    expect(delivery.failures()).toMatchObject({ count: 1 });
  });
});

describe('mail texts', () => {
  it('has the same templates in every language', () => {
    const [first, ...rest] = accountLanguages.map((language) =>
      Object.keys(mailTexts[language]).sort(),
    );
    for (const keys of rest) expect(keys).toEqual(first);
  });

  it('says how long a link works in each language', () => {
    expect(describeDuration(3600, 'en')).toBe('1 hour');
    expect(describeDuration(7 * 86400, 'en')).toBe('7 days');
    expect(describeDuration(90 * 60, 'en')).toBe('90 minutes');
    expect(describeDuration(2 * 3600, 'zh-CN')).toBe('2 小时');
  });

  it('escapes names in the HTML part', () => {
    const mail = renderMail('reset-password', 'en', {
      firstName: '<b>Eve</b>',
      link: 'http://x.test/resetpassword?email=a&code=b',
      validForSeconds: 3600,
    });
    expect(mail.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt;,');
    expect(mail.html).toContain('href="http://x.test/resetpassword?email=a&amp;code=b"');
    expect(mail.text).toContain('http://x.test/resetpassword?email=a&code=b');
  });
});
