import { z } from 'zod';

/** Rule categories of SPEC §3. Any other number is shown as Other. */
export const RuleCategory = {
  WebPerformance: 1,
  Spellcheck: 2,
  ValidHtml: 3,
  Seo: 4,
  UserExperience: 5,
} as const;
export type RuleCategory = (typeof RuleCategory)[keyof typeof RuleCategory];

export const ruleCategoryLabels: Readonly<Record<RuleCategory, string>> = {
  1: 'Web performance',
  2: 'Spellcheck',
  3: 'Valid HTML',
  4: 'SEO',
  5: 'User Experience',
};
export const otherRuleCategoryLabel = 'Other';

export function isRuleCategory(categoryID: number): categoryID is RuleCategory {
  return Object.hasOwn(ruleCategoryLabels, categoryID);
}

/**
 * The category of a catalogue rule id: ids are category × 1000 + n and never reused (decisions,
 * issue 5), so a plan can be applied to a request's rule ids without the catalogue at hand.
 */
export function ruleCategoryOfId(ruleId: number): number {
  return Math.floor(ruleId / 1000);
}

/** The label of a category number; numbers outside 1–5 are Other (SPEC §3). */
export function ruleCategoryLabel(categoryID: number): string {
  return isRuleCategory(categoryID) ? ruleCategoryLabels[categoryID] : otherRuleCategoryLabel;
}

/**
 * How a rule finds its violations: a built-in rule is code in the engine; a search rule is data
 * (searchString, shouldExist, fileFilter) an operator can add without code.
 */
export const RuleType = { BuiltIn: 1, Search: 2 } as const;
export type RuleType = (typeof RuleType)[keyof typeof RuleType];

/** A searchString starting with this prefix is a regular expression (JavaScript syntax). */
export const regexSearchPrefix = 'regex:';

/** Why a searchString cannot be used, or undefined when it can. */
export function searchStringProblem(searchString: string): string | undefined {
  if (!searchString.startsWith(regexSearchPrefix)) {
    return searchString.length === 0 ? 'A search rule needs a search string' : undefined;
  }
  const pattern = searchString.slice(regexSearchPrefix.length);
  if (pattern.length === 0) return 'The regular expression is empty';
  try {
    new RegExp(pattern, 'g');
    return undefined;
  } catch (error) {
    return `Invalid regular expression: ${(error as Error).message}`;
  }
}

/**
 * A quality rule with the fields of SPEC §3. `slug` (a readable id such as `seo/title-missing`)
 * is ours; the date and employee fields record who changed an operator's rule and when.
 */
export const ruleSchema = z
  .object({
    linkAuditorRuleID: z.number().int().positive(),
    slug: z.string().max(200).optional(),
    ruleName: z.string().min(1).max(200),
    ruleURL: z.string().max(2000).default(''),
    violationPrompt: z.string().max(1000).default(''),
    isEnabled: z.boolean().default(true),
    /** Plain text (case-insensitive) or `regex:<pattern>`; searched in the page's HTML source. */
    searchString: z.string().max(10_000).default(''),
    ruleType: z.number().int().default(RuleType.Search),
    /** true: a page lacking the search string violates the rule; false: each match does. */
    shouldExist: z.boolean().default(false),
    ruleNote: z.string().max(2000).default(''),
    /** URL globs (`/blog/*`, `*.html`) and/or content types (`text/html`), space-separated. */
    fileFilter: z.string().max(2000).default(''),
    note: z.string().max(2000).default(''),
    siteName: z.string().max(200).default(''),
    siteRuleID: z.number().int().nullable().default(null),
    dateCreated: z.iso.datetime({ offset: true }).optional(),
    createdBy: z.string().max(200).optional(),
    dateModified: z.iso.datetime({ offset: true }).optional(),
    modifiedBy: z.string().max(200).optional(),
    categoryID: z.number().int().default(0),
  })
  .superRefine((rule, context) => {
    if (rule.ruleType !== RuleType.Search) return;
    const problem = searchStringProblem(rule.searchString);
    if (problem) context.addIssue({ code: 'custom', path: ['searchString'], message: problem });
  });
export type Rule = z.infer<typeof ruleSchema>;
export type RuleInput = z.input<typeof ruleSchema>;
