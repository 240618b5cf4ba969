import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { isInSvg } from '../dom.js';

export const h1Missing: PageRule = {
  id: 4009,
  slug: 'seo/h1-missing',
  name: 'No h1 heading',
  category: RuleCategory.Seo,
  note: 'The page has no <h1> heading.',
  prompt: 'Give the page one <h1> that states its main topic.',
  check(page, report) {
    if (page.all('h1').length === 0) report(page.first('body') ?? page.first('html') ?? 0);
  },
};

export const h1Multiple: PageRule = {
  id: 4010,
  slug: 'seo/h1-multiple',
  name: 'More than one h1 heading',
  category: RuleCategory.Seo,
  note: 'The page has more than one <h1>, so its main topic is unclear.',
  prompt: 'Keep one <h1> for the main topic and use <h2>–<h6> below it.',
  check(page, report) {
    const headings = page.all('h1').filter((heading) => !isInSvg(heading));
    headings.slice(1).forEach((heading, index) => {
      report(heading, `h1 number ${index + 2} of ${headings.length}`);
    });
  },
};
