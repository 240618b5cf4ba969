import { describe, expect, it } from 'vitest';
import {
  RuleCategory,
  ruleCategoryLabel,
  ruleSchema,
  RuleType,
  searchStringProblem,
} from './rule.js';

describe('rule model (SPEC §3)', () => {
  it('fills the defaults of an operator rule', () => {
    expect(
      ruleSchema.parse({
        linkAuditorRuleID: 90001,
        ruleName: 'No lorem ipsum',
        searchString: 'lorem',
      }),
    ).toEqual({
      linkAuditorRuleID: 90001,
      ruleName: 'No lorem ipsum',
      ruleURL: '',
      violationPrompt: '',
      isEnabled: true,
      searchString: 'lorem',
      ruleType: RuleType.Search,
      shouldExist: false,
      ruleNote: '',
      fileFilter: '',
      note: '',
      siteName: '',
      siteRuleID: null,
      categoryID: 0,
    });
  });

  it('keeps the date and employee fields', () => {
    const rule = ruleSchema.parse({
      linkAuditorRuleID: 90002,
      ruleName: 'Analytics tag present',
      searchString: 'regex:gtag\\(',
      shouldExist: true,
      dateCreated: '2024-05-01T09:30:00Z',
      createdBy: 'ops@example.com',
      dateModified: '2024-05-02T10:00:00+02:00',
      modifiedBy: 'ops@example.com',
      categoryID: RuleCategory.Seo,
    });
    expect(rule).toMatchObject({
      dateCreated: '2024-05-01T09:30:00Z',
      modifiedBy: 'ops@example.com',
    });
  });

  it('refuses a search rule without a usable search string', () => {
    const parse = (searchString: string) =>
      ruleSchema.safeParse({ linkAuditorRuleID: 1, ruleName: 'x', searchString });
    expect(parse('').error?.issues[0]?.message).toBe('A search rule needs a search string');
    expect(parse('regex:').error?.issues[0]?.message).toBe('The regular expression is empty');
    expect(parse('regex:(a').error?.issues[0]?.path).toEqual(['searchString']);
    expect(parse('regex:(?i:lorem)').success).toBe(true);
  });

  it('does not ask built-in rules for a search string', () => {
    const builtIn = {
      linkAuditorRuleID: 4001,
      ruleName: 'Title missing',
      ruleType: RuleType.BuiltIn,
    };
    expect(ruleSchema.safeParse(builtIn).success).toBe(true);
  });

  it('names the five categories and calls any other number Other', () => {
    expect([1, 2, 3, 4, 5, 0, 9].map(ruleCategoryLabel)).toEqual([
      'Web performance',
      'Spellcheck',
      'Valid HTML',
      'SEO',
      'User Experience',
      'Other',
      'Other',
    ]);
  });

  it('explains what is wrong with a search string', () => {
    expect(searchStringProblem('plain text')).toBeUndefined();
    expect(searchStringProblem('regex:[')).toMatch(/^Invalid regular expression/);
  });
});
