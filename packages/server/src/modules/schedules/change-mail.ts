import type { AccountLanguage } from '@linkaudit/core';
import { escapeHtml, type RenderedMail } from '../mail/mail.templates.js';

/** What changed between two runs of a schedule: broken URLs that are new, and ones now working. */
export interface BrokenLinkChanges {
  appeared: string[];
  disappeared: string[];
}

export function brokenLinkChanges(previous: string[], current: string[]): BrokenLinkChanges {
  const before = new Set(previous);
  const now = new Set(current);
  return {
    appeared: current.filter((url) => !before.has(url)),
    disappeared: previous.filter((url) => !now.has(url)),
  };
}

export interface ChangeMailParameters {
  firstName: string;
  url: string;
  changes: BrokenLinkChanges;
  /** Broken URLs in this run, all told. */
  brokenNow: number;
  reportLink: string;
  scheduleLink: string;
}

/** A mail lists this many URLs of each kind; the report has the rest. */
export const listedUrls = 20;

interface ChangeMailTexts {
  subject: (url: string) => string;
  greeting: (name: string) => string;
  intro: (url: string) => string;
  appeared: (count: number) => string;
  disappeared: (count: number) => string;
  more: (count: number) => string;
  total: (count: number) => string;
  action: string;
  stop: string;
}

/** Each language has the same texts; a test keeps the two in step. */
export const changeMailTexts: Record<AccountLanguage, ChangeMailTexts> = {
  en: {
    subject: (url: string) => `Broken links changed on ${url}`,
    greeting: (name: string) => `Hello ${name},`,
    intro: (url: string) =>
      `The latest scheduled scan of ${url} found changes in its broken links.`,
    appeared: (count: number) => `${count} new broken ${count === 1 ? 'link' : 'links'}:`,
    disappeared: (count: number) => `${count} ${count === 1 ? 'link works' : 'links work'} again:`,
    more: (count: number) => `… and ${count} more in the report.`,
    total: (count: number) => `Broken links in this scan: ${count}.`,
    action: 'Open the report',
    stop: 'You receive this mail because the schedule notifies you of changes; turn it off in the schedule editor:',
  },
  'zh-CN': {
    subject: (url: string) => `${url} 的失效链接有变化`,
    greeting: (name: string) => `${name}，您好：`,
    intro: (url: string) => `${url} 最近一次定时扫描发现失效链接有变化。`,
    appeared: (count: number) => `新增 ${count} 个失效链接：`,
    disappeared: (count: number) => `${count} 个链接已恢复正常：`,
    more: (count: number) => `……另有 ${count} 个，请查看报告。`,
    total: (count: number) => `本次扫描的失效链接：${count} 个。`,
    action: '打开报告',
    stop: '您收到此邮件是因为该定时扫描开启了变化通知；可在定时扫描编辑器中关闭：',
  },
};

/** The mail a schedule's owner gets when a run's broken links differ from the previous run's. */
export function renderChangeMail(
  language: AccountLanguage,
  parameters: ChangeMailParameters,
): RenderedMail {
  const words = changeMailTexts[language];
  const sections = [
    { heading: words.appeared, urls: parameters.changes.appeared },
    { heading: words.disappeared, urls: parameters.changes.disappeared },
  ].filter((section) => section.urls.length > 0);

  const textSections = sections.flatMap((section) => [
    section.heading(section.urls.length),
    ...section.urls.slice(0, listedUrls).map((url) => `  ${url}`),
    ...(section.urls.length > listedUrls ? [words.more(section.urls.length - listedUrls)] : []),
    '',
  ]);
  const text = [
    words.greeting(parameters.firstName),
    '',
    words.intro(parameters.url),
    '',
    ...textSections,
    words.total(parameters.brokenNow),
    `${words.action}: ${parameters.reportLink}`,
    '',
    `${words.stop} ${parameters.scheduleLink}`,
    '',
    'LinkAudit',
  ].join('\n');

  const htmlSections = sections.map((section) => {
    const items = section.urls
      .slice(0, listedUrls)
      .map((url) => `<li>${escapeHtml(url)}</li>`)
      .join('');
    const more =
      section.urls.length > listedUrls
        ? `<p>${escapeHtml(words.more(section.urls.length - listedUrls))}</p>`
        : '';
    return `<p>${escapeHtml(section.heading(section.urls.length))}</p><ul>${items}</ul>${more}`;
  });
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(words.greeting(parameters.firstName))}</p>`,
    `<p>${escapeHtml(words.intro(parameters.url))}</p>`,
    ...htmlSections,
    `<p>${escapeHtml(words.total(parameters.brokenNow))}</p>`,
    `<p><a href="${escapeHtml(parameters.reportLink)}">${escapeHtml(words.action)}</a></p>`,
    `<p>${escapeHtml(words.stop)} <a href="${escapeHtml(parameters.scheduleLink)}">${escapeHtml(parameters.scheduleLink)}</a></p>`,
    '<p>LinkAudit</p>',
    '</body></html>',
  ].join('\n');
  return { subject: words.subject(parameters.url), text, html };
}
