import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

// Counted texts follow each language's plural rules (i18next's `_one` forms): English says
// "1 page is", Chinese has one form for every count.
const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../public/locales',
);

async function translatorFor(language: string) {
  const file = path.join(localesDir, language, 'translation.json');
  const translation = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation } } });
  return instance.t;
}

describe('plurals', () => {
  it('English says one page, two pages', async () => {
    const t = await translatorFor('en');
    expect(t('report.summary.fatPages', { count: 1 })).toBe(
      '1 page is larger than 2 MB; see the Page tab.',
    );
    expect(t('report.summary.fatPages', { count: 2 })).toBe(
      '2 pages are larger than 2 MB; see the Page tab.',
    );
    expect(t('scan.list.uniqueLinks', { count: 1 })).toBe('1 unique destination');
    expect(t('billing.state.trial', { count: 1 })).toBe('Trial: 1 day left');
    expect(t('scan.answers.lowCredit.text', { count: 1 })).toMatch(/^Only 1 URL is left/);
  });
  it('Chinese has one form for every count', async () => {
    const t = await translatorFor('zh-CN');
    expect(t('report.summary.fatPages', { count: 1 })).toBe(
      '有 1 个页面大于 2 MB；请查看“页面”选项卡。',
    );
    expect(t('report.summary.fatPages', { count: 3 })).toBe(
      '有 3 个页面大于 2 MB；请查看“页面”选项卡。',
    );
  });
});
