import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { isInHead } from '../dom.js';
import type { PageElement, ParsedPage } from '../page.js';
import { canonicalLinks } from './head-facts.js';

export const canonicalMissing: PageRule = {
  id: 4011,
  slug: 'seo/canonical-missing',
  name: 'Canonical link missing',
  category: RuleCategory.Seo,
  note: 'The page has no <link rel="canonical">.',
  prompt: 'Add <link rel="canonical" href="…"> with the absolute address of the preferred version.',
  check(page, report) {
    if (canonicalLinks(page).length === 0) report(page.headSpot);
  },
};

/** What is wrong with one canonical link, or undefined when nothing is. */
function canonicalProblem(page: ParsedPage, link: PageElement, index: number): string | undefined {
  if (index > 0) return 'More than one canonical link; search engines may ignore them all';
  if (!isInHead(link)) return 'Canonical link outside <head> is ignored';
  const href = link.attribs.href?.trim() ?? '';
  if (href === '') return 'Canonical link without an address';
  const target = page.resolve(href);
  if (!target) return `Not a valid URL: ${href}`;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return `Not an http(s) address: ${href}`;
  }
  if (!URL.canParse(href)) return `Relative address ${href}; use an absolute URL`;
  if (target.hash) return `The address has a fragment (${target.hash})`;
  return undefined;
}

export const canonicalInvalid: PageRule = {
  id: 4012,
  slug: 'seo/canonical-invalid',
  name: 'Invalid canonical link',
  category: RuleCategory.Seo,
  note: 'A canonical link is empty, relative, not http(s), outside <head>, has a fragment, or is repeated.',
  prompt: 'Keep exactly one canonical link in the <head>, with an absolute http(s) address.',
  check(page, report) {
    canonicalLinks(page).forEach((link, index) => {
      const problem = canonicalProblem(page, link, index);
      if (problem) report(link, problem);
    });
  },
};
