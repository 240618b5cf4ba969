// What search engines read in the body: image descriptions and structured data.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr, textOf } from '../dom.js';

export const imageAltMissing: PageRule = {
  id: 4014,
  slug: 'seo/image-alt-missing',
  name: 'Image without alt attribute',
  category: RuleCategory.Seo,
  note: 'An <img> has no alt attribute, so search engines and screen readers cannot tell what it shows.',
  prompt: 'Describe the image in alt; use alt="" for purely decorative images.',
  check(page, report) {
    for (const image of page.all('img')) if (image.attribs.alt === undefined) report(image);
  },
};

export const jsonLdInvalid: PageRule = {
  id: 4017,
  slug: 'seo/json-ld-invalid',
  name: 'Invalid JSON-LD',
  category: RuleCategory.Seo,
  note: 'A <script type="application/ld+json"> block is not valid JSON, so its structured data is lost.',
  prompt:
    'Fix the JSON syntax (quotes, commas, brackets) and test it with a structured-data validator.',
  check(page, report) {
    for (const script of page.all('script')) {
      if (attr(script, 'type')?.toLowerCase() !== 'application/ld+json') continue;
      const text = textOf(script).trim();
      if (text === '') {
        report(script, 'Empty JSON-LD block');
        continue;
      }
      try {
        JSON.parse(text);
      } catch (error) {
        report(script, (error as Error).message);
      }
    }
  },
};
