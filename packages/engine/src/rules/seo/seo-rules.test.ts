import { describe, expect, it } from 'vitest';
import {
  bodyLine,
  caseIds,
  itChecksRules,
  pageInput,
  testPage,
  violationsOf,
  type RuleCase,
} from '../test-support/rule-test.js';
import { hreflangProblem } from './hreflang.js';
import { seoRules } from './seo-rules.js';

const clean = testPage();
const head = (overrides: Parameters<typeof testPage>[0] & object) => testPage(overrides);
const extraHead = (line: string): string => testPage({ head: { extra: line } });
const body = (...lines: string[]): string => testPage({ body: lines });
const description = (text: string) => `<meta name="description" content="${text}">`;
// Pages of one site without canonical links: duplicates among them are real duplicates.
const sitePage = (path: string, options: Parameters<typeof testPage>[0] = {}) =>
  pageInput(testPage({ ...options, head: { canonical: null, ...options.head } }), {
    url: `https://example.com/${path}`,
  });
const longDescription = 'Spades, rakes and shears for small gardens. '.repeat(5);

const cases: RuleCase[] = [
  { id: 4001, bad: head({ head: { title: null } }), at: [3, 1], good: clean },
  {
    id: 4002,
    bad: head({ head: { title: `<title>${'Garden tools and spades '.repeat(3)}</title>` } }),
    at: [6, 1],
    good: clean,
  },
  { id: 4003, bad: head({ head: { title: '<title>Tools</title>' } }), at: [6, 1], good: clean },
  {
    id: 4004,
    bad: [sitePage('a'), sitePage('b')],
    at: [6, 1],
    good: [
      sitePage('a'),
      sitePage('b', { head: { title: '<title>Spades for clay soil</title>' } }),
    ],
  },
  { id: 4005, bad: head({ head: { description: null } }), at: [3, 1], good: clean },
  {
    id: 4006,
    bad: head({ head: { description: description(longDescription) } }),
    at: [7, 1],
    good: clean,
  },
  {
    id: 4007,
    bad: head({ head: { description: description('Garden tools.') } }),
    at: [7, 1],
    good: clean,
  },
  {
    id: 4008,
    bad: [sitePage('a'), sitePage('b')],
    at: [7, 1],
    good: [
      sitePage('a'),
      sitePage('b', { head: { description: description(longDescription.slice(0, 120)) } }),
    ],
  },
  { id: 4009, bad: body('<p>Our spades are forged from steel.</p>'), at: [12, 1], good: clean },
  {
    id: 4010,
    bad: body('<h1>Garden tools</h1>', '<section>', '  <h1>Spades</h1>', '</section>'),
    at: [bodyLine(2), 3],
    good: body('<h1>Garden tools</h1>', '<h2>Spades</h2>'),
  },
  { id: 4011, bad: head({ head: { canonical: null } }), at: [3, 1], good: clean },
  {
    id: 4012,
    bad: head({ head: { canonical: '<link rel="canonical" href="/tools">' } }),
    at: [8, 1],
    good: clean,
  },
  {
    id: 4013,
    bad: extraHead('<meta name="robots" content="noindex, follow">'),
    at: [10, 1],
    good: extraHead('<meta name="robots" content="index, follow">'),
  },
  {
    id: 4014,
    bad: body('<h1>Tools</h1>', '<p><img src="/a.png" width="40" height="30"></p>'),
    at: [bodyLine(1), 4],
    good: body('<h1>Tools</h1>', '<p><img src="/a.png" alt="" width="40" height="30"></p>'),
  },
  {
    id: 4015,
    bad: extraHead('<link rel="alternate" hreflang="en-UK" href="https://example.com/uk/tools">'),
    at: [10, 1],
    good: extraHead('<link rel="alternate" hreflang="en-GB" href="https://example.com/uk/tools">'),
  },
  {
    id: 4016,
    bad: extraHead('<meta http-equiv="refresh" content="0; url=https://example.com/new">'),
    at: [10, 1],
    good: clean,
  },
  {
    id: 4017,
    bad: body(
      '<h1>Tools</h1>',
      '<script type="application/ld+json">{"@type": "Product",}</script>',
    ),
    at: [bodyLine(1), 1],
    good: body(
      '<h1>Tools</h1>',
      '<script type="application/ld+json">{"@type": "Product"}</script>',
    ),
  },
];

describe('SEO rules', () => {
  it('has a case for every rule of the category', () => {
    expect(caseIds(cases)).toEqual(seoRules.map((rule) => rule.id).sort((a, b) => a - b));
  });

  itChecksRules(cases);

  it('reports an empty title at the title element', () => {
    const [violation] = violationsOf(4001, head({ head: { title: '<title> </title>' } }));
    expect(violation).toMatchObject({ line: 6, column: 1, message: 'The <title> is empty' });
  });

  it('reports every page of a duplicate group, naming the others', () => {
    const found = violationsOf(4004, [sitePage('a'), sitePage('b'), sitePage('c')]);
    expect(found.map((violation) => violation.url)).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/c',
    ]);
    expect(found[0]?.message).toBe(
      'Same title as 2 other page(s): https://example.com/b, https://example.com/c',
    );
  });

  it('does not count pages that name another page as canonical', () => {
    const alternate = pageInput(clean, { url: 'https://example.com/tools?sort=price' });
    expect(violationsOf(4004, [pageInput(clean), alternate])).toEqual([]);
  });

  it.each([
    ['<link rel="canonical" href="https://example.com/tools#top">', 'fragment'],
    ['<link rel="canonical" href="">', 'without an address'],
    ['<link rel="canonical" href="ftp://example.com/tools">', 'http(s)'],
  ])('finds the canonical link %s invalid', (link, reason) => {
    const [violation] = violationsOf(4012, head({ head: { canonical: link } }));
    expect(violation?.message).toContain(reason);
  });

  it('finds a second canonical link and one in the body invalid', () => {
    const second = extraHead('<link rel="canonical" href="https://example.com/other">');
    expect(violationsOf(4012, second)).toMatchObject([{ line: 10, column: 1 }]);
    const inBody = testPage({
      head: { canonical: null },
      body: ['<link rel="canonical" href="https://example.com/tools">'],
    });
    expect(violationsOf(4012, inBody)[0]?.message).toContain('outside <head>');
  });

  it('reads noindex from the X-Robots-Tag header', () => {
    const input = pageInput(clean, { headers: { 'x-robots-tag': 'googlebot: noindex' } });
    expect(violationsOf(4013, input)).toMatchObject([{ line: 2, column: 1 }]);
  });

  it.each([
    ['en', undefined],
    ['x-default', undefined],
    ['zh-Hans-CN', undefined],
    ['es-419', undefined],
    ['english', '"english" is not a language code such as en or en-GB'],
    ['xx', '"xx" is not an ISO 639 language code'],
    ['en-ZZ', '"zz" is not an ISO 3166 region code'],
  ])('judges hreflang %s', (value, problem) => {
    expect(hreflangProblem(value)).toBe(problem);
  });

  it('finds one hreflang naming two pages', () => {
    const html = testPage({
      head: { extra: '<link rel="alternate" hreflang="de" href="https://example.com/de/a">' },
      body: [
        '<h1>Tools</h1>',
        '<link rel="alternate" hreflang="de" href="https://example.com/de/b">',
      ],
    });
    expect(violationsOf(4015, html)).toMatchObject([{ line: bodyLine(1), column: 1 }]);
  });
});
