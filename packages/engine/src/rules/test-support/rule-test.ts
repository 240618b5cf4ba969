// Helpers for rule tests: a page that passes every built-in rule, variants of it with one thing
// wrong, and a table runner asserting where each rule points.
import { expect, it } from 'vitest';
import type { RulePageInput, RuleRunnerOptions, RuleViolation } from '../rule-types.js';
import { createRuleRunner } from '../runner.js';

/** The head lines of the clean page, each replaceable (null leaves a comment in its place). */
export const cleanHead = {
  charset: '<meta charset="utf-8">',
  viewport: '<meta name="viewport" content="width=device-width, initial-scale=1">',
  title: '<title>Garden tools for every season</title>',
  description:
    '<meta name="description" content="Spades, rakes and pruning shears for small gardens, with advice on choosing and caring for each tool.">',
  canonical: '<link rel="canonical" href="https://example.com/tools">',
  icon: '<link rel="icon" href="/favicon.svg">',
  extra: '<link rel="stylesheet" href="/site.css">',
};

export interface TestPageOptions {
  doctype?: string;
  /** `<html>`'s attributes; default `lang="en"`. */
  htmlAttributes?: string;
  head?: Partial<Record<keyof typeof cleanHead, string | null>>;
  body?: string[];
}

export const defaultBody = ['<h1>Garden tools</h1>', '<p>Our spades are forged from steel.</p>'];

/**
 * A page whose lines are always in the same place, so tests can name exact lines:
 * 1 doctype, 2 `<html>`, 3 `<head>`, 4–10 the head lines in `cleanHead` order, 11 `</head>`,
 * 12 `<body>`, and body line k (from 0) on line 13 + k.
 */
export function testPage(options: TestPageOptions = {}): string {
  const head = { ...cleanHead, ...options.head };
  const headLines = (Object.keys(cleanHead) as (keyof typeof cleanHead)[]).map(
    (key) => head[key] ?? `<!-- no ${key} -->`,
  );
  return [
    options.doctype ?? '<!DOCTYPE html>',
    `<html ${options.htmlAttributes ?? 'lang="en"'}>`,
    '<head>',
    ...headLines,
    '</head>',
    '<body>',
    ...(options.body ?? defaultBody),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The line a body line (counted from 0) of `testPage` is on. */
export const bodyLine = (index: number): number => 13 + index;

/** A crawled page as the engine would hand it over: 200, compressed, cacheable. */
export function pageInput(html: string, overrides: Partial<RulePageInput> = {}): RulePageInput {
  return {
    url: 'https://example.com/tools',
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=600' },
    contentType: 'text/html; charset=utf-8',
    html,
    bytes: Buffer.byteLength(html),
    compressed: true,
    redirects: [],
    isStartPage: false,
    ...overrides,
  };
}

/** The violations one rule finds on some pages, site-level ones included. */
export function violationsOf(
  ruleId: number,
  pages: string | RulePageInput | (string | RulePageInput)[],
  options: Partial<RuleRunnerOptions> = {},
): RuleViolation[] {
  const runner = createRuleRunner({ selectedRules: [ruleId], ...options });
  const inputs = Array.isArray(pages) ? pages : [pages];
  const found = inputs.flatMap((page) =>
    runner.checkPage(typeof page === 'string' ? pageInput(page) : page),
  );
  return [...found, ...runner.finishSite()];
}

export interface RuleCase {
  id: number;
  /** A page (or site) breaking the rule, and where its first violation must be. */
  bad: string | RulePageInput | (string | RulePageInput)[];
  at: [line: number, column: number];
  /** A page (or site) that passes. */
  good: string | RulePageInput | (string | RulePageInput)[];
}

/** One test per case and direction: the bad page is flagged at the exact place, the good one not. */
export function itChecksRules(cases: readonly RuleCase[]): void {
  for (const { id, bad, at, good } of cases) {
    it(`rule ${id} flags the violating page at line ${at[0]}, column ${at[1]}`, () => {
      const [first] = violationsOf(id, bad);
      expect(first && [first.line, first.column]).toEqual(at);
      expect(first?.snippet.length).toBeLessThanOrEqual(120);
    });
    it(`rule ${id} passes the clean page`, () => {
      expect(violationsOf(id, good)).toEqual([]);
    });
  }
}

/** The ids of a rule table, to check it covers a whole category. */
export const caseIds = (cases: readonly RuleCase[]): number[] =>
  [...new Set(cases.map((testCase) => testCase.id))].sort((a, b) => a - b);
