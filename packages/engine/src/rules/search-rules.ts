// Data-driven rules (SPEC §3): an operator describes what to look for in a page's HTML source,
// whether it must be there or must not, and on which pages, without writing code.
import { regexSearchPrefix, RuleType, searchStringProblem, type Rule } from '@linkaudit/core';
import { builtInRules } from './catalogue.js';
import { escapeRegExp, parseFileFilter } from './file-filter.js';
import type { ParsedPage } from './page.js';
import type { Report, RulePageInput } from './rule-types.js';
import { thresholds } from './thresholds.js';

export interface SearchRule {
  id: number;
  appliesTo(input: RulePageInput): boolean;
  check(page: ParsedPage, report: Report): void;
}

/**
 * The selected and enabled search rules, ready to run. Throws with the rule's id and name when
 * one cannot run, so a scan fails at its start rather than silently skipping a rule.
 */
export function compileSearchRules(
  rules: readonly Rule[],
  selected: ReadonlySet<number>,
): SearchRule[] {
  const builtInIds = new Set(builtInRules.map((rule) => rule.id));
  return rules
    .filter((rule) => selected.has(rule.linkAuditorRuleID) && rule.isEnabled)
    .map((rule) => {
      const problem = builtInIds.has(rule.linkAuditorRuleID)
        ? 'its id belongs to a built-in rule'
        : rule.ruleType !== RuleType.Search
          ? `its ruleType is ${rule.ruleType}, not ${RuleType.Search} (search)`
          : searchStringProblem(rule.searchString);
      if (problem) {
        throw new Error(
          `Rule ${rule.linkAuditorRuleID} ("${rule.ruleName}") cannot run: ${problem}`,
        );
      }
      return compile(rule);
    });
}

function compile(rule: Rule): SearchRule {
  const pattern = searchPattern(rule.searchString);
  const filter = parseFileFilter(rule.fileFilter);
  const shown = shorten(rule.searchString, 60);
  return {
    id: rule.linkAuditorRuleID,
    appliesTo: (input) => filter.matches(input.url, input.contentType),
    check(page, report) {
      pattern.lastIndex = 0;
      if (rule.shouldExist) {
        if (!pattern.test(page.html)) report(page.first('html') ?? 0, `Not found: ${shown}`);
        return;
      }
      // Every match is a violation, up to the runner's limit per page.
      let found = 0;
      for (const match of page.html.matchAll(pattern)) {
        // The snippet shows the match and what follows it, as far as a snippet goes.
        const end = match.index + Math.max(match[0].length, 120);
        report({ start: match.index, end }, `Found: ${shorten(match[0], 60)}`);
        if (++found === thresholds.maxViolationsPerRuleAndPage) break;
      }
    },
  };
}

/** Plain text matches ignoring case; `regex:` patterns are taken as written. */
function searchPattern(searchString: string): RegExp {
  if (searchString.startsWith(regexSearchPrefix)) {
    return new RegExp(searchString.slice(regexSearchPrefix.length), 'g');
  }
  return new RegExp(escapeRegExp(searchString), 'gi');
}

function shorten(text: string, length: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > length ? `${oneLine.slice(0, length - 1)}…` : oneLine;
}
