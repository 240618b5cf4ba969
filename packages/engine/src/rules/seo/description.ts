import { RuleCategory } from '@linkaudit/core';
import type { PageRule, SiteRule } from '../built-in-rule.js';
import { collapse } from '../dom.js';
import type { PageElement, ParsedPage } from '../page.js';
import { thresholds } from '../thresholds.js';
import { duplicateTextCollector } from './duplicates.js';
import { metaDescription } from './head-facts.js';

/** The description meta element and its text, when it has one. */
function description(page: ParsedPage): { meta: PageElement; text: string } | undefined {
  const meta = metaDescription(page);
  const text = collapse(meta?.attribs.content ?? '');
  return meta && text ? { meta, text } : undefined;
}

export const descriptionMissing: PageRule = {
  id: 4005,
  slug: 'seo/meta-description-missing',
  name: 'Meta description missing',
  category: RuleCategory.Seo,
  note: 'The page has no <meta name="description">, or an empty one.',
  prompt: 'Add a meta description summarising the page in one or two sentences.',
  check(page, report) {
    if (description(page)) return;
    const meta = metaDescription(page);
    report(meta ?? page.headSpot, meta ? 'The description is empty' : 'No meta description');
  },
};

export const descriptionTooLong: PageRule = {
  id: 4006,
  slug: 'seo/meta-description-too-long',
  name: 'Meta description too long',
  category: RuleCategory.Seo,
  note: `The meta description is longer than ${thresholds.maxDescriptionChars} characters and will be cut off.`,
  prompt: 'Shorten the description to about 150 characters.',
  check(page, report) {
    const found = description(page);
    if (found && found.text.length > thresholds.maxDescriptionChars) {
      report(found.meta, `${found.text.length} characters`);
    }
  },
};

export const descriptionTooShort: PageRule = {
  id: 4007,
  slug: 'seo/meta-description-too-short',
  name: 'Meta description too short',
  category: RuleCategory.Seo,
  note: `The meta description has fewer than ${thresholds.minDescriptionChars} characters.`,
  prompt: 'Write a description that tells a searcher what they will find on the page.',
  check(page, report) {
    const found = description(page);
    if (found && found.text.length < thresholds.minDescriptionChars) {
      report(found.meta, `${found.text.length} characters`);
    }
  },
};

export const descriptionDuplicate: SiteRule = {
  id: 4008,
  slug: 'seo/meta-description-duplicate',
  name: 'Duplicate meta description',
  category: RuleCategory.Seo,
  note: 'Several pages of the site have the same meta description.',
  prompt:
    'Write a description for each page, or point duplicates to one page with rel="canonical".',
  collect: () =>
    duplicateTextCollector('description', (page) => {
      const found = description(page);
      return found ? { text: found.text, spot: found.meta } : undefined;
    }),
};
