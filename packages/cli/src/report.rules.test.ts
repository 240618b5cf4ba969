import type { RuleViolationEvent } from '@linkaudit/engine';
import { describe, expect, it } from 'vitest';
import { oneLine, ReportCollector } from './report.js';
import { ruleHelpUrl } from './rules.js';
import {
  reportOf,
  ruleEvents,
  rulesReport,
  rulesSummary,
  selectedRules,
  shopEvents,
  shopSummary,
} from './test-support/reports.js';

describe('the collector with --rules', () => {
  it('keeps every violation sorted by page, line, column and rule, with six fields only', () => {
    const rules = rulesReport.rules!;
    expect(rules.summary).toBe(rulesSummary.rules);
    expect(rules.violations).toHaveLength(15);
    expect(rules.violations.slice(0, 4)).toEqual([
      {
        ruleId: 2001,
        url: 'https://shop.example.com/',
        line: 14,
        column: 9,
        snippet: 'Our shoos are comfy',
        message: '"shoos"',
      },
      {
        ruleId: 4001,
        url: 'https://shop.example.com/about',
        line: 3,
        column: 1,
        snippet: '<head>',
        message: 'No <title> element',
      },
      {
        ruleId: 2001,
        url: 'https://shop.example.com/about',
        line: 8,
        column: 5,
        snippet: '=SUM(A1) teh\n\tbest',
        message: undefined,
      },
      {
        ruleId: 4010,
        url: 'https://shop.example.com/blog',
        line: 20,
        column: 1,
        snippet: '<h1>Post 2</h1>',
        message: 'h1 number 2 of 13',
      },
    ]);
    for (const violation of rules.violations) {
      expect(Object.keys(violation)).toEqual([
        'ruleId',
        'url',
        'line',
        'column',
        'snippet',
        'message',
      ]);
    }
  });

  it('lists every selected rule by id with its violations, those without any too', () => {
    const results = rulesReport.rules!.results;
    expect(results.map(({ rule }) => rule.id)).toEqual(selectedRules);
    expect(results.map(({ violations }) => violations.length)).toEqual([2, 1, 12, 0]);
    expect(results[1]!.rule).toEqual({
      id: 4001,
      slug: 'seo/title-missing',
      name: 'Title missing',
      categoryID: 4,
      note: 'The page has no <title>, or an empty one.',
      prompt: 'Give every page a unique, descriptive <title> in its <head>.',
      helpUrl: 'https://linkaudit.dev/rules/4001',
    });
  });

  it('shares one copy of a page address between the violations on that page', () => {
    const collector = new ReportCollector({ rules: [4010] });
    const event = (line: number): RuleViolationEvent => ({
      ...ruleEvents.find((candidate) => candidate.ruleId === 4010)!,
      // A fresh string each time, as a parser would make it.
      url: ['https://shop.example.com/', 'blog'].join(''),
      line,
    });
    collector.add(event(2));
    collector.add(event(1));
    const [first, second] = collector.finish({
      type: 'done',
      summary: shopSummary,
    }).rules!.violations;
    expect(first!.url).toBe(second!.url);
    expect(first!.line).toBe(1);
  });

  it('describes a rule the catalogue does not know from its violations', () => {
    const custom: RuleViolationEvent = {
      type: 'rule',
      ruleId: 90001,
      ruleName: 'No lorem ipsum',
      categoryID: 5,
      url: 'https://shop.example.com/',
      line: 1,
      column: 1,
      snippet: 'lorem ipsum',
    };
    const report = reportOf([custom], {}, { rules: [4001] });
    expect(report.rules!.results.map(({ rule }) => rule)).toEqual([
      expect.objectContaining({ id: 4001 }),
      {
        id: 90001,
        slug: 'rule/90001',
        name: 'No lorem ipsum',
        categoryID: 5,
        note: '',
        prompt: '',
        helpUrl: 'https://linkaudit.dev/rules/90001',
      },
    ]);
  });

  it('has no rules section when no rule was selected', () => {
    expect(reportOf(shopEvents).rules).toBeUndefined();
  });

  it('keeps an absolute explanation address, and makes a relative one absolute', () => {
    expect(ruleHelpUrl('/rules/4001', 4001)).toBe('https://linkaudit.dev/rules/4001');
    expect(ruleHelpUrl('https://example.com/why', 1)).toBe('https://example.com/why');
    expect(ruleHelpUrl('', 7)).toBe('https://linkaudit.dev/rules/7');
  });

  it('puts page source on one line without control characters', () => {
    expect(oneLine('  <p>\n\ta\u001b[31mb\u0085c  </p> ')).toBe('<p> a [31mb c </p>');
  });
});
