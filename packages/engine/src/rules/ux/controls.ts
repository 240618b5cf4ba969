// Buttons and form fields people can name, reach and hit.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr, closest, hasLabelAttribute } from '../dom.js';
import type { PageElement, ParsedPage } from '../page.js';
import { hasAccessibleName } from './accessible-name.js';
import { tapTargetSize } from './tap-targets.js';
import { thresholds } from '../thresholds.js';

const inputType = (input: PageElement): string => attr(input, 'type')?.toLowerCase() ?? 'text';

export const emptyButton: PageRule = {
  id: 5006,
  slug: 'ux/empty-button',
  name: 'Button without text',
  category: RuleCategory.UserExperience,
  note: 'A button has no text and no label, so screen readers announce only "button".',
  prompt: 'Put text in the button, or give an icon button an aria-label.',
  check(page, report) {
    for (const button of page.all('button')) if (!hasAccessibleName(button)) report(button);
    for (const input of page.all('input')) {
      // Submit and reset buttons have a default label; a plain button has none.
      if (inputType(input) === 'button' && !attr(input, 'value') && !hasLabelAttribute(input)) {
        report(input);
      }
    }
  },
};

// Input types that are buttons or invisible and need no label.
const unlabelledTypes = new Set(['hidden', 'submit', 'reset', 'button', 'image']);
const labelNames = new Set(['label']);

/** Ids named by `<label for>` on the page, computed once. */
const labelledIdsKey = Symbol('labelled ids');
function labelledIds(page: ParsedPage): ReadonlySet<string> {
  return page.memo(
    labelledIdsKey,
    () => new Set(page.all('label').map((label) => attr(label, 'for') ?? '')),
  );
}

export const inputWithoutLabel: PageRule = {
  id: 5010,
  slug: 'ux/input-without-label',
  name: 'Form field without label',
  category: RuleCategory.UserExperience,
  note: 'A text field, select or text area has no <label>, aria-label or title; a placeholder is not a label.',
  prompt: 'Add <label for="id">, wrap the field in a <label>, or give it an aria-label.',
  check(page, report) {
    const fields = [...page.all('input'), ...page.all('select'), ...page.all('textarea')];
    for (const field of fields) {
      if (field.name === 'input' && unlabelledTypes.has(inputType(field))) continue;
      const id = attr(field, 'id');
      const labelled =
        hasLabelAttribute(field) ||
        (id !== undefined && id !== '' && labelledIds(page).has(id)) ||
        closest(field, labelNames) !== undefined;
      if (!labelled) report(field);
    }
  },
};

export const tinyTapTarget: PageRule = {
  id: 5011,
  slug: 'ux/tiny-tap-target',
  name: 'Tap target too small',
  category: RuleCategory.UserExperience,
  note: `A link or button is declared smaller than ${thresholds.minTapTargetPx}×${thresholds.minTapTargetPx} CSS pixels, hard to hit on a touch screen.`,
  prompt: `Make links and buttons at least ${thresholds.minTapTargetPx}×${thresholds.minTapTargetPx} pixels, e.g. with padding.`,
  check(page, report) {
    for (const element of page.elements) {
      const size = tapTargetSize(element);
      const min = thresholds.minTapTargetPx;
      if (size && (size.width < min || size.height < min)) {
        report(element, `${size.width}×${size.height} px`);
      }
    }
  },
};

export const positiveTabindex: PageRule = {
  id: 5014,
  slug: 'ux/positive-tabindex',
  name: 'Positive tabindex',
  category: RuleCategory.UserExperience,
  note: 'An element has tabindex above 0, which jumps it ahead of the natural keyboard order.',
  prompt: 'Use tabindex="0" (or none) and order the HTML the way it should be read.',
  check(page, report) {
    for (const element of page.elements) {
      const tabindex = element.attribs.tabindex;
      if (tabindex !== undefined && Number.parseInt(tabindex, 10) > 0) {
        report(element, `tabindex="${tabindex}"`);
      }
    }
  },
};
