import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { scheduleWords } from './schedule-words';

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../public/locales',
);

async function translatorFor(language: string) {
  const file = path.join(localesDir, language, 'translation.json');
  const translation = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation } } });
  return instance.t;
}

const timing = { frequency: 2, weeklyDay: 3, monthlyDay: 15 };

describe('schedules in SPEC §9 words', () => {
  it('reads English', async () => {
    const t = await translatorFor('en');
    expect(scheduleWords({ ...timing, frequency: 1 }, t, 'en')).toBe('every day');
    expect(scheduleWords(timing, t, 'en')).toBe('every week on Wednesday');
    expect(scheduleWords({ ...timing, frequency: 3 }, t, 'en')).toBe('every month on day 15');
  });
  it('reads Chinese', async () => {
    const t = await translatorFor('zh-CN');
    expect(scheduleWords({ ...timing, frequency: 1 }, t, 'zh-CN')).toBe('每天');
    expect(scheduleWords(timing, t, 'zh-CN')).toBe('每周星期三');
    expect(scheduleWords({ ...timing, frequency: 3 }, t, 'zh-CN')).toBe('每月 15 日');
  });
});
