import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import {
  accountLanguageSchema,
  accountLanguages,
  languageCookie,
  languageOfTag,
  type AccountLanguage,
} from '@linkaudit/core';

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const entry = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return entry ? decodeURIComponent(entry.slice(prefix.length)) : undefined;
}

/** The stored choice, or else the browser's language: Chinese when it starts with "zh" (SPEC §2). */
export function detectLanguage(): AccountLanguage {
  const stored = accountLanguageSchema.safeParse(readCookie(languageCookie));
  return stored.success ? stored.data : languageOfTag(navigator.language);
}

/** Stores the choice for a year and reloads, so every text and antd's own strings switch together. */
export function changeLanguage(language: AccountLanguage): void {
  document.cookie = `${languageCookie}=${encodeURIComponent(language)}; path=/; max-age=31536000; samesite=lax`;
  window.location.reload();
}

export async function initI18n(): Promise<typeof i18n> {
  const language = detectLanguage();
  document.documentElement.lang = language;
  await i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: [...accountLanguages],
      load: 'currentOnly',
      backend: { loadPath: '/locales/{{lng}}/translation.json' },
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  return i18n;
}

/** The interface language in use (for the mails the server sends on our behalf). */
export function currentLanguage(): AccountLanguage {
  const language = accountLanguageSchema.safeParse(i18n.language);
  return language.success ? language.data : 'en';
}
