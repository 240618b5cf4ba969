import type { AccountLanguage } from './account.js';

/**
 * The interface language (SPEC §1, §2): the languages are core's `accountLanguages`; the web app
 * stores the visitor's choice in this cookie and the server reads it for the mails it sends.
 */
export const languageCookie = 'linkaudit_lang';

/** A language tag (`navigator.language`, an Accept-Language entry) as ours: Chinese for zh-*. */
export function languageOfTag(tag: string): AccountLanguage {
  return tag.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
