import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr, tokens } from '../dom.js';
import type { PageElement, ParsedPage } from '../page.js';

// Made on first use: building them loads ICU's locale data (~20 ms), which loading the rule
// catalogue (a server start, `--rules`) need not pay.
let names: { languages: Intl.DisplayNames; regions: Intl.DisplayNames } | undefined;
function displayNames(): NonNullable<typeof names> {
  return (names ??= {
    languages: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }),
    regions: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
  });
}
const tagShape = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?$/i;
// Codes ICU understands but search engines do not accept as a hreflang region.
const refusedRegions = new Map([
  ['uk', 'use GB for the United Kingdom'],
  ['eu', 'the European Union is not a country'],
]);
const verdicts = new Map<string, string | undefined>();

/** What is wrong with a hreflang value (ISO 639 language, optional script and region). */
export function hreflangProblem(value: string): string | undefined {
  const key = value.toLowerCase();
  if (key === 'x-default') return undefined;
  if (verdicts.has(key)) return verdicts.get(key);
  const verdict = judge(key);
  if (verdicts.size < 1000) verdicts.set(key, verdict); // a site uses a handful of codes
  return verdict;
}

function judge(value: string): string | undefined {
  const match = tagShape.exec(value);
  if (!match) return `"${value}" is not a language code such as en or en-GB`;
  const [, language = '', , region] = match;
  const { languages, regions } = displayNames();
  if (!languages.of(language)) return `"${language}" is not an ISO 639 language code`;
  if (region) {
    const refused = refusedRegions.get(region);
    if (refused) return `"${region.toUpperCase()}": ${refused}`;
    const name = regions.of(region.toUpperCase());
    if (!name || name === 'Unknown Region') return `"${region}" is not an ISO 3166 region code`;
  }
  return undefined;
}

function alternateProblem(
  page: ParsedPage,
  link: PageElement,
  seen: Map<string, string>,
): string | undefined {
  const value = attr(link, 'hreflang') ?? '';
  const problem = hreflangProblem(value);
  if (problem) return problem;
  const target = page.resolve(link.attribs.href ?? '');
  if (!link.attribs.href?.trim() || !target) return 'Alternate link without a valid address';
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return 'Not an http(s) address';
  const earlier = seen.get(value.toLowerCase());
  if (earlier !== undefined && earlier !== target.href) {
    return `hreflang="${value}" already points to ${earlier}`;
  }
  seen.set(value.toLowerCase(), target.href);
  return undefined;
}

export const hreflangInvalid: PageRule = {
  id: 4015,
  slug: 'seo/hreflang-invalid',
  name: 'Invalid hreflang',
  category: RuleCategory.Seo,
  note: 'A language alternate (<link rel="alternate" hreflang>) has an invalid code or address, or one code names two pages.',
  prompt:
    'Use ISO 639 language codes with optional ISO 3166 regions (en, en-GB, x-default) and absolute URLs.',
  check(page, report) {
    const seen = new Map<string, string>();
    for (const link of page.all('link')) {
      if (link.attribs.hreflang === undefined || !tokens(link, 'rel').includes('alternate')) {
        continue;
      }
      const problem = alternateProblem(page, link, seen);
      if (problem) report(link, problem);
    }
  },
};
