// What a page's script says went wrong, as a visitor's browser would show it (issue 35).
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';

/** Characters of a console message kept in a finding (some log whole stack traces). */
const maxMessage = 300;

export const consoleError: PageRule = {
  id: 5016,
  slug: 'ux/console-error',
  name: 'Script error in the browser console',
  category: RuleCategory.UserExperience,
  note: 'With rendering on, the page wrote an error to the browser console or threw one its code did not catch: something the page meant to do did not happen for visitors. Failed downloads are not repeated here (they are broken links of the page). Pages are only checked when the scan renders them.',
  prompt:
    'Open the page with the browser console open, read the error and fix the script (or the data it loads).',
  check(page, report) {
    for (const text of page.input.facts?.consoleErrors ?? []) {
      report(page.headSpot, text.length > maxMessage ? `${text.slice(0, maxMessage)}…` : text);
    }
  },
};
