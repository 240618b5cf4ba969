import type { AccountLanguage } from '@linkaudit/core';

/** The mails we send, in each interface language (SPEC §1: English and Simplified Chinese). */
export type MailTemplate =
  'confirm-email' | 'reset-password' | 'sign-in-failures' | 'already-registered';

export interface MailParameters {
  firstName: string;
  /** The web page the mail leads to (confirmation, reset, sign-in). */
  link: string;
  /** How long the link works, in seconds (a link that does not expire: none). */
  validForSeconds?: number;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface TemplateText {
  subject: string;
  greeting: (firstName: string) => string;
  body: string;
  action: string;
  /** Only for links that expire. */
  validity?: (duration: string) => string;
  ignore: string;
}

/** Each language has the same templates; a test keeps the two in step. */
export const mailTexts: Record<AccountLanguage, Record<MailTemplate, TemplateText>> = {
  en: {
    'confirm-email': {
      subject: 'Confirm your LinkAudit account',
      greeting: (name) => `Hello ${name},`,
      body: 'Thank you for joining LinkAudit. Please confirm your e-mail address by opening this link:',
      action: 'Confirm my e-mail address',
      validity: (duration) => `The link works for ${duration}.`,
      ignore: 'If you did not create an account, you can ignore this mail.',
    },
    'reset-password': {
      subject: 'Reset your LinkAudit password',
      greeting: (name) => `Hello ${name},`,
      body: 'Someone asked to reset the password of your LinkAudit account. To choose a new password, open this link:',
      action: 'Choose a new password',
      validity: (duration) => `The link works for ${duration} and only once.`,
      ignore:
        'If you did not ask for this, you can ignore this mail; your password stays as it is.',
    },
    'sign-in-failures': {
      subject: 'Failed sign-ins to your LinkAudit account',
      greeting: (name) => `Hello ${name},`,
      body: 'Someone has entered a wrong password for your LinkAudit account several times. Addresses that keep failing must now wait before they try again; you can still sign in as usual. If it was not you, choose a new password:',
      action: 'Choose a new password',
      ignore: 'If it was you, you can ignore this mail.',
    },
    'already-registered': {
      subject: 'Your LinkAudit account',
      greeting: (name) => `Hello ${name},`,
      body: 'Someone tried to join LinkAudit with your e-mail address, which already has an account. If it was you, sign in, or choose a new password if you forgot it:',
      action: 'Sign in',
      ignore: 'If it was not you, you can ignore this mail; your account stays as it is.',
    },
  },
  'zh-CN': {
    'confirm-email': {
      subject: '确认您的 LinkAudit 账户',
      greeting: (name) => `${name}，您好：`,
      body: '感谢您注册 LinkAudit。请打开以下链接确认您的电子邮件地址：',
      action: '确认我的电子邮件地址',
      validity: (duration) => `该链接在 ${duration}内有效。`,
      ignore: '如果您没有注册账户，请忽略此邮件。',
    },
    'reset-password': {
      subject: '重置您的 LinkAudit 密码',
      greeting: (name) => `${name}，您好：`,
      body: '有人请求重置您的 LinkAudit 账户密码。要设置新密码，请打开以下链接：',
      action: '设置新密码',
      validity: (duration) => `该链接在 ${duration}内有效，且只能使用一次。`,
      ignore: '如果这不是您本人的请求，请忽略此邮件，您的密码不会改变。',
    },
    'sign-in-failures': {
      subject: '您的 LinkAudit 账户有多次登录失败',
      greeting: (name) => `${name}，您好：`,
      body: '有人多次为您的 LinkAudit 账户输入了错误的密码。一再失败的地址现在须等待后才能重试；您仍可照常登录。如果这不是您本人，请设置新密码：',
      action: '设置新密码',
      ignore: '如果是您本人，请忽略此邮件。',
    },
    'already-registered': {
      subject: '您的 LinkAudit 账户',
      greeting: (name) => `${name}，您好：`,
      body: '有人尝试用您的电子邮件地址注册 LinkAudit，而该地址已有账户。如果是您本人，请登录；如果忘记了密码，请设置新密码：',
      action: '登录',
      ignore: '如果这不是您本人，请忽略此邮件，您的账户不会改变。',
    },
  },
};

const unitNames = {
  en: { d: ['day', 'days'], h: ['hour', 'hours'], m: ['minute', 'minutes'] },
  'zh-CN': { d: ['天', '天'], h: ['小时', '小时'], m: ['分钟', '分钟'] },
} as const;
const unitSeconds = { d: 86400, h: 3600, m: 60 } as const;

/** A lifetime in words: `7 days`, `1 hour`, `7 天`, `1 小时`. */
export function describeDuration(seconds: number, language: AccountLanguage): string {
  const unit = seconds % 86400 === 0 ? 'd' : seconds % 3600 === 0 ? 'h' : 'm';
  const amount = Math.max(1, Math.round(seconds / unitSeconds[unit]));
  const [one, many] = unitNames[language][unit];
  return `${amount} ${amount === 1 ? one : many}`;
}

export function renderMail(
  template: MailTemplate,
  language: AccountLanguage,
  parameters: MailParameters,
): RenderedMail {
  const texts = mailTexts[language][template];
  const validity =
    texts.validity && parameters.validForSeconds !== undefined
      ? texts.validity(describeDuration(parameters.validForSeconds, language))
      : undefined;
  const greeting = texts.greeting(parameters.firstName);
  const text = [
    greeting,
    '',
    texts.body,
    '',
    parameters.link,
    '',
    ...(validity ? [validity] : []),
    texts.ignore,
    '',
    'LinkAudit',
  ].join('\n');
  const paragraph = (content: string): string => `<p>${content}</p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><body style="font-family: sans-serif; line-height: 1.5">`,
    paragraph(escapeHtml(greeting)),
    paragraph(escapeHtml(texts.body)),
    paragraph(`<a href="${escapeHtml(parameters.link)}">${escapeHtml(texts.action)}</a>`),
    ...(validity ? [paragraph(escapeHtml(validity))] : []),
    paragraph(escapeHtml(texts.ignore)),
    paragraph('LinkAudit'),
    '</body></html>',
  ].join('\n');
  return { subject: texts.subject, text, html };
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
