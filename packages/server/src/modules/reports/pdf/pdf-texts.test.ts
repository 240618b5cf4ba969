import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { suggestionBases, suggestionKinds, type Suggestion } from '@linkaudit/core';
import { pdfTexts, zhFailureReasons, zhRuleCategories } from './pdf-texts.js';

const locale = (language: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../../../web/public/locales/${language}/translation.json`, import.meta.url),
      'utf8',
    ),
  ) as {
    failureReason: Record<string, string>;
    ruleCategory: Record<string, string>;
    report: { suggestion: SuggestionLocale };
  };

/** The report screen's words for a suggested fix (report.suggestion.* of the web locale). */
interface SuggestionLocale {
  column: string;
  kind: Record<string, string>;
  confidence: string;
  chain: string;
  why: Record<string, string>;
}

describe('the PDF report’s texts', () => {
  it('name failure labels in Chinese exactly as the web app’s locale does', () => {
    expect(zhFailureReasons).toEqual(locale('zh-CN').failureReason);
    const zh = pdfTexts('zh-CN');
    for (const [label, chinese] of Object.entries(locale('zh-CN').failureReason)) {
      expect(zh.reason(label)).toBe(chinese);
    }
    expect(zh.reason('Some New Label')).toBe('Some New Label');
  });

  it('name rule categories in Chinese as the web app does, any other id as Other', () => {
    expect(zhRuleCategories).toEqual(locale('zh-CN').ruleCategory);
    const zh = pdfTexts('zh-CN');
    expect([1, 2, 3, 4, 5, 9].map((id) => zh.category(id, 'English'))).toEqual([
      '网页性能',
      '拼写检查',
      '有效 HTML',
      'SEO',
      '用户体验',
      '其他',
    ]);
    expect(pdfTexts('en').category(4, 'SEO')).toBe('SEO');
  });

  it('keep SPEC’s labels in English, as the web app’s English locale does', () => {
    const en = pdfTexts('en');
    for (const [label, shown] of Object.entries(locale('en').failureReason)) {
      expect(en.reason(label)).toBe(shown);
    }
  });

  it.each([['en'], ['zh-CN']] as const)(
    'word a suggested fix as the report screen does (%s)',
    (language) => {
      const texts = pdfTexts(language);
      const screen = locale(language).report.suggestion;
      expect(texts.suggestedFix).toBe(screen.column);
      for (const kind of suggestionKinds)
        expect(texts.suggestionKind(kind)).toBe(screen.kind[kind]);
      expect(texts.suggestionConfidence(82)).toBe(screen.confidence.replace('{{percent}}', '82'));
      expect(texts.suggestionChain(3)).toBe(screen.chain.replace('{{hops}}', '3'));
      for (const basis of suggestionBases) {
        const suggestion: Suggestion = {
          kind: 'redirect',
          basis,
          url: null,
          confidence: null,
          hops: 3,
        };
        expect(texts.suggestionWhy(suggestion)).toBe(screen.why[basis]!.replace('{{hops}}', '3'));
      }
    },
  );
});
