import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfTexts, zhFailureReasons } from './pdf-texts.js';

const locale = (language: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../../../web/public/locales/${language}/translation.json`, import.meta.url),
      'utf8',
    ),
  ) as { failureReason: Record<string, string> };

describe('the PDF report’s texts', () => {
  it('name failure labels in Chinese exactly as the web app’s locale does', () => {
    expect(zhFailureReasons).toEqual(locale('zh-CN').failureReason);
    const zh = pdfTexts('zh-CN');
    for (const [label, chinese] of Object.entries(locale('zh-CN').failureReason)) {
      expect(zh.reason(label)).toBe(chinese);
    }
    expect(zh.reason('Some New Label')).toBe('Some New Label');
  });

  it('keep SPEC’s labels in English, as the web app’s English locale does', () => {
    const en = pdfTexts('en');
    for (const [label, shown] of Object.entries(locale('en').failureReason)) {
      expect(en.reason(label)).toBe(shown);
    }
  });
});
