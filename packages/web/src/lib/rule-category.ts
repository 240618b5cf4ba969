import { isRuleCategory } from '@linkaudit/core';

/** The i18n key of a rule category (SPEC §3: 1–5, anything else is Other). */
export function ruleCategoryKey(categoryID: number): string {
  return `ruleCategory.${isRuleCategory(categoryID) ? `c${categoryID}` : 'other'}`;
}
