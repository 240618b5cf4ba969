import { ruleSchema, type RuleInput } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { createRuleRunner } from './runner.js';
import { parseFileFilter } from './file-filter.js';
import { bodyLine, pageInput, testPage, violationsOf } from './test-support/rule-test.js';

const searchRule = (fields: Partial<RuleInput>) =>
  ruleSchema.parse({ linkAuditorRuleID: 90_001, ruleName: 'Operator rule', ...fields });
const run = (fields: Partial<RuleInput>, ...pages: Parameters<typeof violationsOf>[1][]) =>
  pages.flatMap((page) => violationsOf(90_001, page, { customRules: [searchRule(fields)] }));
const placeholderPage = testPage({
  body: ['<h1>Garden tools</h1>', '<p>Lorem ipsum dolor.</p>', '<p>More LOREM IPSUM here.</p>'],
});

describe('data-driven search rules', () => {
  it('reports every occurrence of plain text, ignoring case, where it is', () => {
    const found = run({ searchString: 'lorem ipsum' }, placeholderPage);
    expect(
      found.map(({ line, column, snippet, message }) => ({ line, column, snippet, message })),
    ).toEqual([
      {
        line: bodyLine(1),
        column: 4,
        snippet: 'Lorem ipsum dolor.</p> <p>More LOREM IPSUM here.</p> </body> </html>',
        message: 'Found: Lorem ipsum',
      },
      {
        line: bodyLine(2),
        column: 9,
        snippet: 'LOREM IPSUM here.</p> </body> </html>',
        message: 'Found: LOREM IPSUM',
      },
    ]);
  });

  it('takes regex: patterns as written (case matters)', () => {
    const found = run({ searchString: 'regex:Lorem\\s+\\w+' }, placeholderPage);
    expect(found.map(({ line, column, message }) => [line, column, message])).toEqual([
      [bodyLine(1), 4, 'Found: Lorem ipsum'],
    ]);
    expect(run({ searchString: 'regex:<marquee\\b' }, placeholderPage)).toEqual([]);
  });

  it('with shouldExist, reports pages that lack the text, once, at <html>', () => {
    const rule = { searchString: 'regex:gtag\\(|googletagmanager', shouldExist: true };
    expect(run(rule, placeholderPage)).toMatchObject([
      { line: 2, column: 1, message: 'Not found: regex:gtag\\(|googletagmanager' },
    ]);
    const tracked = testPage({ body: ['<h1>Tools</h1>', '<script>gtag("config")</script>'] });
    expect(run(rule, tracked)).toEqual([]);
  });

  it('runs only on pages its URL glob matches', () => {
    const rule = { searchString: 'lorem', fileFilter: '/blog/*' };
    const blog = pageInput(placeholderPage, { url: 'https://example.com/blog/2024/spring' });
    const shop = pageInput(placeholderPage, { url: 'https://example.com/shop/spades' });
    expect(run(rule, blog)).toHaveLength(2);
    expect(run(rule, shop)).toEqual([]);
  });

  it('runs only on pages of its content type, and on both filters together', () => {
    const xhtml = pageInput(placeholderPage, { contentType: 'application/xhtml+xml' });
    expect(run({ searchString: 'lorem', fileFilter: 'text/html' }, xhtml)).toEqual([]);
    expect(run({ searchString: 'lorem', fileFilter: 'text/html' }, placeholderPage)).toHaveLength(
      2,
    );
    const both = { searchString: 'lorem', fileFilter: 'application/* *.xhtml' };
    const page = pageInput(placeholderPage, {
      url: 'https://example.com/a.xhtml',
      contentType: 'application/xhtml+xml; charset=utf-8',
    });
    expect(run(both, page)).toHaveLength(2);
    expect(run(both, { ...page, url: 'https://example.com/a.html' })).toEqual([]);
  });

  it('runs only when selected and enabled', () => {
    const customRules = [searchRule({ searchString: 'lorem' })];
    const page = pageInput(placeholderPage);
    expect(createRuleRunner({ selectedRules: [], customRules }).checkPage(page)).toEqual([]);
    const disabled = [searchRule({ searchString: 'lorem', isEnabled: false })];
    expect(
      createRuleRunner({ selectedRules: [90_001], customRules: disabled }).checkPage(page),
    ).toEqual([]);
  });

  it('refuses at the start a rule that cannot run', () => {
    const invalid = { ...searchRule({ searchString: 'x' }), searchString: 'regex:(' };
    expect(() => createRuleRunner({ selectedRules: [90_001], customRules: [invalid] })).toThrow(
      /Rule 90001 \("Operator rule"\) cannot run: Invalid regular expression/,
    );
    const taken = searchRule({ linkAuditorRuleID: 4001, searchString: 'x' });
    expect(() => createRuleRunner({ selectedRules: [4001], customRules: [taken] })).toThrow(
      'its id belongs to a built-in rule',
    );
  });
});

describe('file filters', () => {
  it.each([
    ['', 'https://example.com/a', 'text/html', true],
    ['*.pdf', 'https://example.com/docs/a.PDF', 'application/pdf', true],
    ['/docs/*', 'https://example.com/docs/a?b=1', 'text/html', true],
    ['/docs/*', 'https://example.com/doc', 'text/html', false],
    ['https://example.com/shop/*', 'https://example.com/shop/a', 'text/html', true],
    ['https://example.com/shop/*', 'https://other.example/shop/a', 'text/html', false],
    ['/p?.html', 'https://example.com/p1.html', 'text/html', true],
    ['text/*', 'https://example.com/a', 'text/html; charset=utf-8', true],
    ['image/png, image/webp', 'https://example.com/a', 'text/html', false],
  ])('%s on %s (%s) → %s', (filter, url, contentType, expected) => {
    expect(parseFileFilter(filter).matches(url, contentType)).toBe(expected);
  });
});
