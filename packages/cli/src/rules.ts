import { ruleCategoryLabel } from '@linkaudit/core';

/** What the reports say about a quality rule, from the engine's catalogue. */
export interface RuleInfo {
  id: number;
  /** Readable id (`seo/title-missing`); `rule/<id>` for a rule the catalogue does not know. */
  slug: string;
  name: string;
  categoryID: number;
  /** One sentence: what the rule checks. */
  note: string;
  /** What to do about a violation. */
  prompt: string;
  /** The rule's explanation page, absolute (see ruleHelpUrl). */
  helpUrl: string;
}

/**
 * The catalogue's ruleURL is relative (`/rules/1001`, served by the LinkAudit server); a report
 * read away from the server (a terminal, a SARIF viewer) needs an absolute address.
 */
export const ruleDocsOrigin = 'https://linkaudit.dev';

export function ruleHelpUrl(ruleUrl: string, id: number): string {
  return new URL(ruleUrl || `/rules/${id}`, `${ruleDocsOrigin}/`).href;
}

let catalogue: ReadonlyMap<number, RuleInfo> | undefined;

/**
 * The engine's catalogue, read once. Its import loads every rule's code (~70 modules), so only
 * --rules and reports with rule results ask for it.
 */
export async function loadRuleCatalogue(): Promise<ReadonlyMap<number, RuleInfo>> {
  const { ruleCatalogue } = await import('@linkaudit/engine/rules');
  catalogue ??= new Map(
    ruleCatalogue()
      .map((rule): RuleInfo => ({
        id: rule.linkAuditorRuleID,
        slug: rule.slug ?? `rule/${rule.linkAuditorRuleID}`,
        name: rule.ruleName,
        categoryID: rule.categoryID,
        note: rule.ruleNote,
        prompt: rule.violationPrompt,
        helpUrl: ruleHelpUrl(rule.ruleURL, rule.linkAuditorRuleID),
      }))
      .sort((a, b) => a.id - b.id)
      .map((rule) => [rule.id, rule]),
  );
  return catalogue;
}

/** Every built-in rule by id, in id order; loadRuleCatalogue() must have been awaited. */
export function builtInRules(): ReadonlyMap<number, RuleInfo> {
  if (!catalogue) throw new Error('the rule catalogue is not loaded (await loadRuleCatalogue())');
  return catalogue;
}

/** A rule by id; one the catalogue does not know is described from what a violation said. */
export function ruleInfo(id: number, known?: { name: string; categoryID: number }): RuleInfo {
  return (
    builtInRules().get(id) ?? {
      id,
      slug: `rule/${id}`,
      name: known?.name ?? `Rule ${id}`,
      categoryID: known?.categoryID ?? 0,
      note: '',
      prompt: '',
      helpUrl: ruleHelpUrl('', id),
    }
  );
}

/** The categories that have built-in rules, in order, with their label and id range. */
export function ruleCategories(): { categoryID: number; label: string; ids: number[] }[] {
  const categories = new Map<number, number[]>();
  for (const rule of builtInRules().values()) {
    categories.set(rule.categoryID, [...(categories.get(rule.categoryID) ?? []), rule.id]);
  }
  return [...categories]
    .sort(([a], [b]) => a - b)
    .map(([categoryID, ids]) => ({ categoryID, label: ruleCategoryLabel(categoryID), ids }));
}

/** "1 Web performance (1001-1015), 2 Spellcheck (2001-2012), …" for usage errors. */
export function ruleCategoryList(): string {
  return ruleCategories()
    .map(({ categoryID, label, ids }) => `${categoryID} ${label} (${ids[0]}-${ids.at(-1)})`)
    .join(', ');
}
