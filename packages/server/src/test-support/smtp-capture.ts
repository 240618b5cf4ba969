import { SMTPServer } from 'smtp-server';
import { parseMail, type ParsedMail } from './mime.js';

export interface CapturedMail extends ParsedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for SMTP_URL in tests. */
export interface SmtpCapture {
  url: string;
  mails: CapturedMail[];
  /** The next mail to `to` not handed out before; waits up to `timeoutMs` for it. */
  nextMailTo(to: string, timeoutMs?: number): Promise<CapturedMail>;
  stop(): Promise<void>;
}

/** `port` 0 lets the system choose; a fixed one lets a test stop the server and start it again. */
export async function startSmtpCapture(port = 0): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const handedOut = new Set<CapturedMail>();
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
        mails.push({ ...parseMail(raw), to, raw });
        for (const listener of listeners) listener();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address();
  const listening = typeof address === 'object' && address ? address.port : 0;

  const take = (to: string): CapturedMail | undefined => {
    const mail = mails.find(
      (candidate) => !handedOut.has(candidate) && candidate.to.includes(to.toLowerCase()),
    );
    if (mail) handedOut.add(mail);
    return mail;
  };

  return {
    url: `smtp://127.0.0.1:${listening}`,
    mails,
    nextMailTo: (to, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const found = take(to);
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        function check(): void {
          const mail = take(to);
          if (!mail) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(mail);
        }
        listeners.add(check);
      }),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
