import { accountLanguageSchema } from '@linkaudit/core';
import type { Mailer } from '../mail/mail.service.js';
import { renderMail } from '../mail/mail.templates.js';
import type { User } from './accounts.repository.js';

/** Mails that tell an owner what others did with their address; their links never expire. */
export type AccountNotice = 'sign-in-failures' | 'already-registered';

const noticeLinks: Record<AccountNotice, (user: User) => string> = {
  // The reset page of SPEC §2 with the address filled in.
  'sign-in-failures': (user) => `/forgotpassword/${encodeURIComponent(user.email)}`,
  'already-registered': () => '/signin',
};

/** Mails the owner in their language, in the background (no answer waits for SMTP). */
export function mailAccountNotice(
  deps: { mailer: Mailer; publicUrl: string },
  user: User,
  notice: AccountNotice,
): void {
  const language = accountLanguageSchema.safeParse(user.language);
  const link = `${deps.publicUrl}${noticeLinks[notice](user)}`;
  const rendered = renderMail(notice, language.success ? language.data : 'en', {
    firstName: user.firstName,
    link,
  });
  deps.mailer.sendInBackground({ to: user.email, ...rendered, link });
}
