import type { FastifyRequest } from 'fastify';
import {
  accountLanguageSchema,
  languageCookie,
  languageOfTag,
  type AccountLanguage,
} from '@linkaudit/core';

/**
 * The language of the mails we send someone: what the form said, else the web app's language
 * cookie, else the browser's Accept-Language (Chinese when its preferred language is zh-*).
 */
export function requestLanguage(
  request: FastifyRequest,
  stated?: AccountLanguage,
): AccountLanguage {
  if (stated) return stated;
  const cookie = accountLanguageSchema.safeParse(request.cookies[languageCookie]);
  if (cookie.success) return cookie.data;
  return preferredLanguage(request.headers['accept-language'] ?? '');
}

export function preferredLanguage(acceptLanguage: string): AccountLanguage {
  const ranked = acceptLanguage
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...parameters] = entry.trim().toLowerCase().split(';');
      const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter(
      (entry) => entry.quality > 0 && (entry.tag.startsWith('zh') || entry.tag.startsWith('en')),
    )
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return languageOfTag(ranked[0]?.tag ?? '');
}
