import { RuleCategory } from '@linkaudit/core';
import type { PageRule, SiteRule } from '../built-in-rule.js';
import { visibleText } from '../dom.js';
import { thresholds } from '../thresholds.js';
import { duplicateTextCollector } from './duplicates.js';
import { documentTitle } from './head-facts.js';

export const titleMissing: PageRule = {
  id: 4001,
  slug: 'seo/title-missing',
  name: 'Title missing',
  category: RuleCategory.Seo,
  note: 'The page has no <title>, or an empty one.',
  prompt: 'Give every page a unique, descriptive <title> in its <head>.',
  check(page, report) {
    const title = documentTitle(page);
    if (!title) report(page.headSpot, 'No <title> element');
    else if (visibleText(title) === '') report(title, 'The <title> is empty');
  },
};

export const titleTooLong: PageRule = {
  id: 4002,
  slug: 'seo/title-too-long',
  name: 'Title too long',
  category: RuleCategory.Seo,
  note: `The title is longer than ${thresholds.maxTitleChars} characters and will be cut off in search results.`,
  prompt: 'Shorten the title; put the words that matter first.',
  check(page, report) {
    const title = documentTitle(page);
    const length = title ? visibleText(title).length : 0;
    if (title && length > thresholds.maxTitleChars) report(title, `${length} characters`);
  },
};

export const titleTooShort: PageRule = {
  id: 4003,
  slug: 'seo/title-too-short',
  name: 'Title too short',
  category: RuleCategory.Seo,
  note: `The title has fewer than ${thresholds.minTitleChars} characters, too few to describe the page.`,
  prompt: "Write a title that says what the page is about, with the site's name if there is room.",
  check(page, report) {
    const title = documentTitle(page);
    const length = title ? visibleText(title).length : 0;
    if (title && length > 0 && length < thresholds.minTitleChars) {
      report(title, `${length} characters`);
    }
  },
};

export const titleDuplicate: SiteRule = {
  id: 4004,
  slug: 'seo/title-duplicate',
  name: 'Duplicate title',
  category: RuleCategory.Seo,
  note: 'Several pages of the site have the same title.',
  prompt: 'Give each page its own title, or point duplicates to one page with rel="canonical".',
  collect: () =>
    duplicateTextCollector('title', (page) => {
      const title = documentTitle(page);
      return title ? { text: visibleText(title), spot: title } : undefined;
    }),
};
