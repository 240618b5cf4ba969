import { readdirSync, readFileSync } from 'node:fs';
import { ruleSchema, RuleCategory } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { ruleCatalogue } from './catalogue.js';
import { createRuleRunner } from './runner.js';
import { bodyLine, pageInput, testPage, violationsOf } from './test-support/rule-test.js';

const allIds = ruleCatalogue().map((rule) => rule.linkAuditorRuleID);

describe('rule runner', () => {
  it('finds nothing on a clean page with every built-in rule on', () => {
    const runner = createRuleRunner({ selectedRules: allIds });
    expect(runner.checkPage(pageInput(testPage()))).toEqual([]);
    expect(runner.finishSite()).toEqual([]);
  });

  it('runs no rule when none is selected', () => {
    const runner = createRuleRunner({ selectedRules: [] });
    const broken = testPage({ head: { title: null }, htmlAttributes: '' });
    expect(runner.checkPage(pageInput(broken))).toEqual([]);
    expect(runner.finishSite()).toEqual([]);
  });

  it('runs only the selected rules', () => {
    const broken = testPage({ head: { title: null, viewport: null } });
    const found = createRuleRunner({ selectedRules: [5001] }).checkPage(pageInput(broken));
    expect(found.map((violation) => violation.ruleId)).toEqual([5001]);
  });

  it('ignores selected ids that are no rule', () => {
    expect(violationsOf(999_999, testPage())).toEqual([]);
  });

  it('reports url, rule, 1-based line and column, a snippet and a message', () => {
    const html = testPage({ body: ['<p>Photo:', '  <img src="/a.png">', '</p>'] });
    const [violation] = violationsOf(4014, pageInput(html, { url: 'https://example.com/p' }));
    expect(violation).toEqual({
      ruleId: 4014,
      url: 'https://example.com/p',
      line: bodyLine(1),
      column: 3,
      snippet: '<img src="/a.png">',
    });
  });

  it('keeps at most 100 violations of one rule on one page', () => {
    const images = Array.from({ length: 150 }, () => '<img src="/a.png" width="1" height="1">');
    expect(violationsOf(4014, testPage({ body: images }))).toHaveLength(100);
  });

  it.each([
    ['an empty document', ''],
    ['a lone bracket', '<'],
    ['an unterminated attribute', '<html lang="en"><a href="/x'],
    ['stray brackets', '<<<>>> & &&; &#xZZ; &#99999999;'],
    ['unclosed nesting', '<div>'.repeat(200)],
    [
      'foreign content',
      '<svg><title>T</title><a href="#x"><text>i</text></a></svg><math><mi>x</mi></math>',
    ],
    ['control characters', '<p>\u0000\u0007 text \uFFFF \uD800</p>'],
    ['a template and a comment', '<template><p>Teh</p></template><!-- <p>x</p> --><!--unclosed'],
  ])('runs every rule on %s without failing', (_label, html) => {
    const runner = createRuleRunner({ selectedRules: allIds });
    expect(() => runner.checkPage(pageInput(html, { url: 'not a url' }))).not.toThrow();
    expect(() => runner.finishSite()).not.toThrow();
  });

  it('cuts snippets to 120 characters on one line', () => {
    const long = `<img src="/${'a'.repeat(300)}.png"\n   width="1">`;
    const [violation] = violationsOf(4014, testPage({ body: [long] }));
    expect(violation?.snippet).toHaveLength(120);
    expect(violation?.snippet).not.toContain('\n');
  });
});

describe('rule catalogue', () => {
  const catalogue = ruleCatalogue();

  it('has at least 60 rules, at least 8 in each category', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(60);
    for (const category of Object.values(RuleCategory)) {
      const inCategory = catalogue.filter((rule) => rule.categoryID === category);
      expect(inCategory.length, `category ${category}`).toBeGreaterThanOrEqual(8);
    }
  });

  it('gives every rule a unique id and slug, an explanation URL and the SPEC shape', () => {
    expect(new Set(allIds).size).toBe(catalogue.length);
    expect(new Set(catalogue.map((rule) => rule.slug)).size).toBe(catalogue.length);
    for (const rule of catalogue) {
      expect(ruleSchema.parse(rule)).toEqual(rule);
      expect(rule.ruleURL).toBe(`/rules/${rule.linkAuditorRuleID}`);
      expect(Math.floor(rule.linkAuditorRuleID / 1000)).toBe(rule.categoryID);
      expect(rule.ruleNote).not.toBe('');
      expect(rule.violationPrompt).not.toBe('');
    }
  });

  it('has an English explanation page docs/rules/<id>.md for every rule, and no other', () => {
    const folder = new URL('../../../../docs/rules/', import.meta.url);
    const pages = readdirSync(folder).filter((name) => name.endsWith('.md'));
    expect(pages.sort()).toEqual(allIds.map((id) => `${id}.md`).sort());
    for (const rule of catalogue) {
      const page = readFileSync(new URL(`${rule.linkAuditorRuleID}.md`, folder), 'utf8');
      expect(page.split('\n')[0]).toBe(`# ${rule.ruleName}`);
      expect(page).toContain(`\`${rule.slug}\``);
    }
  });
});
