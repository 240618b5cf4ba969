// Very large or very deep documents cost memory and make every style and layout pass slower.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { thresholds } from '../thresholds.js';

export const domSize: PageRule = {
  id: 1013,
  slug: 'performance/dom-size',
  name: 'Too many elements',
  category: RuleCategory.WebPerformance,
  note: `The page has more than ${thresholds.maxDomElements} elements.`,
  prompt: 'Paginate long lists and tables, load hidden content on demand, simplify wrappers.',
  check(page, report) {
    const over = page.elements[thresholds.maxDomElements];
    if (over)
      report(
        over,
        `${page.elements.length} elements; this is number ${thresholds.maxDomElements + 1}`,
      );
  },
};

export const domDepth: PageRule = {
  id: 1014,
  slug: 'performance/dom-depth',
  name: 'Elements nested too deeply',
  category: RuleCategory.WebPerformance,
  note: `Elements are nested more than ${thresholds.maxDomDepth} levels deep.`,
  prompt:
    'Remove wrapper elements that only exist for styling; flatten the layout with grid or flex.',
  check(page, report) {
    const deep = page.elements.find((element) => element.depth > thresholds.maxDomDepth);
    if (deep) report(deep, `Nested ${deep.depth} levels deep`);
  },
};
