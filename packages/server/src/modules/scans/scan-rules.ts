import type { Rule } from '@linkaudit/core';
import { ruleCatalogue } from '@linkaudit/engine/rules';

/**
 * The rules list of GET /api/ScanRuleApi/: the engine's built-in catalogue. The one place to
 * change should the list come from elsewhere (e.g. data-driven rules stored per site).
 */
export function scanRules(): Rule[] {
  return ruleCatalogue();
}
