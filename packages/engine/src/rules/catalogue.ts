import { RuleType, type Rule } from '@linkaudit/core';
import { htmlRules } from './html/html-rules.js';
import { performanceRules } from './performance/performance-rules.js';
import type { BuiltInRule } from './built-in-rule.js';
import { ruleHistory } from './rule-history.js';
import { seoRules } from './seo/seo-rules.js';
import { spellingRules } from './spelling/spelling-rules.js';
import { uxRules } from './ux/ux-rules.js';

/** Every built-in rule, ordered by id. */
export const builtInRules: readonly BuiltInRule[] = [
  ...performanceRules,
  ...spellingRules,
  ...htmlRules,
  ...seoRules,
  ...uxRules,
].sort((a, b) => a.id - b.id);

/** The explanation page the server serves for a rule (SPEC §3 ruleURL). */
export function ruleUrl(id: number): string {
  return `/rules/${id}`;
}

/** A built-in rule in the SPEC §3 shape shared with the server and the web app. */
export function toCatalogueRule(rule: BuiltInRule): Rule {
  return {
    linkAuditorRuleID: rule.id,
    slug: rule.slug,
    ruleName: rule.name,
    ruleURL: ruleUrl(rule.id),
    violationPrompt: rule.prompt,
    isEnabled: true,
    searchString: '',
    ruleType: RuleType.BuiltIn,
    shouldExist: false,
    ruleNote: rule.note,
    fileFilter: '',
    note: '',
    siteName: '',
    siteRuleID: null,
    // SPEC §3's date and employee fields: when the rule entered the catalogue and by whom, when
    // its code last changed and by whom (from the project's history, scripts/write-rule-history.mjs).
    ...ruleHistory.get(rule.id),
    categoryID: rule.category,
  };
}

/** Every built-in rule as the SPEC §3 Rule shape. */
export function ruleCatalogue(): Rule[] {
  return builtInRules.map(toCatalogueRule);
}
