import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import type { ReactNode } from 'react';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';

/**
 * Web components rendered as the app renders them (query client, antd's App, a router, the real
 * translation files), in a test's own DOM (happy-dom), with the API answered by `api`.
 */
export type Language = 'en' | 'zh-CN';

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../public/locales',
);

function translation(language: Language): Record<string, unknown> {
  const file = path.join(localesDir, language, 'translation.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The app's i18next instance in `language`, with the real translation files. */
export async function useLanguage(language: Language): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: language,
      fallbackLng: 'en',
      resources: { en: { translation: translation('en') } },
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  if (!i18n.hasResourceBundle(language, 'translation'))
    i18n.addResourceBundle(language, 'translation', translation(language));
  await i18n.changeLanguage(language);
}

/**
 * A fake API: each GET answers the JSON of the first entry whose key the path starts with, 404
 * otherwise. Answers the paths asked, for tests that check what was asked.
 */
export function answerApi(answers: Record<string, unknown>): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (input: string) => {
    asked.push(input);
    const match = Object.keys(answers).find((prefix) => input.startsWith(prefix));
    if (match === undefined) return Promise.resolve(new Response('{}', { status: 404 }));
    return Promise.resolve(
      new Response(JSON.stringify(answers[match]), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return asked;
}

/** The window's size, as a phone (390 × 844) or a laptop (1366 × 768) shows the app. */
export function useViewport(width: number, height: number): void {
  (window as unknown as { happyDOM: { setViewport(size: object): void } }).happyDOM.setViewport({
    width,
    height,
  });
}

export function renderScreen(ui: ReactNode): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AntApp>
        <MemoryRouter>{ui}</MemoryRouter>
      </AntApp>
    </QueryClientProvider>,
  );
}
