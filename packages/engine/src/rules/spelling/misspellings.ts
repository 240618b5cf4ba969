import type { PageRule } from '../built-in-rule.js';
// One rule per place a misspelt word can be, so a site can choose, say, headings and titles only.
import { RuleCategory } from '@linkaudit/core';
import type { TextContext } from './texts.js';
import { thresholds } from '../thresholds.js';
import { proseFindings } from './prose.js';

// What every misspelling rule leaves alone (issue 25), appended to each rule's note.
const leavesAlone =
  ' Reports known common misspellings ("recieve", "Teh" at a sentence start) and words that look like slips (one letter swapped, doubled, left out or changed inside the word, "-ys" plurals); leaves alone code (code, pre, kbd, samp, var, tt and code classes such as literal or programlisting), identifiers, options and paths, capitalised words (names), words of three letters or fewer, compounds, affixed and British forms of known words, the scan\u2019s ignore list, and the site\u2019s own terms: words on 5 pages or more, in code, in navigation links, or in headings and text on two pages or more (a known common misspelling is a term only in code).';

function misspeltIn(
  context: TextContext,
  info: Pick<PageRule, 'id' | 'slug' | 'name' | 'note'>,
): PageRule {
  return {
    ...info,
    note: info.note + leavesAlone,
    category: RuleCategory.Spellcheck,
    prompt:
      'Correct the spelling, or add the word to the scan\u2019s spelling ignore list if it is a name.',
    check(page, report) {
      const vocabulary = page.services.spelling.vocabulary;
      let held = 0;
      for (const finding of proseFindings(page)) {
        if (finding.kind !== 'misspelt' || finding.context !== context) continue;
        const word = finding.word ?? '';
        const common = finding.common === true;
        if (vocabulary.isTerm(word, common)) continue; // the site's term, as far as read yet
        const spot = { start: finding.start, end: finding.start + 120 };
        if (!vocabulary.holding) {
          report(spot, finding.message);
        } else if (held++ < thresholds.maxViolationsPerRuleAndPage) {
          // Until the scan ends: the word may still prove to be the site's term.
          vocabulary.hold(
            word,
            common,
            info.id,
            page.input.url,
            page.locate(spot),
            finding.message,
          );
        }
      }
    },
  };
}

export const misspellingRules: readonly PageRule[] = [
  misspeltIn('body', {
    id: 2001,
    slug: 'spelling/misspelt-word',
    name: 'Misspelt word',
    note: 'A word of the page text is not in the English dictionary.',
  }),
  misspeltIn('title', {
    id: 2004,
    slug: 'spelling/misspelt-title',
    name: 'Misspelt word in title',
    note: 'A word of the page title is not in the English dictionary.',
  }),
  misspeltIn('heading', {
    id: 2005,
    slug: 'spelling/misspelt-heading',
    name: 'Misspelt word in heading',
    note: 'A word of a heading (h1–h6) is not in the English dictionary.',
  }),
  misspeltIn('link', {
    id: 2006,
    slug: 'spelling/misspelt-link-text',
    name: 'Misspelt word in link text',
    note: 'A word of a link text is not in the English dictionary.',
  }),
  misspeltIn('alt', {
    id: 2007,
    slug: 'spelling/misspelt-alt-text',
    name: 'Misspelt word in alt text',
    note: 'A word of an image\u2019s alt text is not in the English dictionary.',
  }),
  misspeltIn('description', {
    id: 2008,
    slug: 'spelling/misspelt-meta-description',
    name: 'Misspelt word in meta description',
    note: 'A word of the meta description (the search-result snippet) is not in the English dictionary.',
  }),
  misspeltIn('form', {
    id: 2009,
    slug: 'spelling/misspelt-form-text',
    name: 'Misspelt word in a form',
    note: 'A word of a button, label, option, legend or placeholder is not in the English dictionary.',
  }),
  misspeltIn('tooltip', {
    id: 2010,
    slug: 'spelling/misspelt-tooltip',
    name: 'Misspelt word in a tooltip or label attribute',
    note: 'A word of a title or aria-label attribute is not in the English dictionary.',
  }),
];
