import type { Rule } from '@linkaudit/core';
import { scanRules } from '../scans/scan-rules.js';

/** What the rule list (GET /api/ScanRuleApi/) says of a rule: its note and explanation page. */
export interface RuleNote {
  ruleNote: string | null;
  ruleURL: string | null;
}

let byId: Map<string, RuleNote> | undefined;

/**
 * A stored violation's rule in the catalogue, by the id the violation keeps (as text). A rule the
 * catalogue no longer has (renumbered, or a data-driven one) has neither.
 */
export function ruleNoteOf(ruleId: string): RuleNote {
  byId ??= new Map(
    scanRules().map((rule: Rule) => [
      String(rule.linkAuditorRuleID),
      { ruleNote: rule.ruleNote || null, ruleURL: rule.ruleURL || null },
    ]),
  );
  return byId.get(ruleId) ?? { ruleNote: null, ruleURL: null };
}
