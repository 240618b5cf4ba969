import { HtmlValidate, StaticConfigLoader } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { ParsedPage } from '../page.js';
import { ScanServices } from '../services.js';
import { pageInput, testPage, violationsOf } from '../test-support/rule-test.js';
import { buildSkeleton } from './skeleton.js';
import { htmlValidateConfig } from './validator.js';

const parse = (html: string) => new ParsedPage(pageInput(html), new ScanServices());
const skeletonOf = (html: string) => buildSkeleton(parse(html)).source;

// Pages with something for every kind of replacement and every kind of error nearby.
const corpus = [
  testPage({ body: ['<p>Spades &amp; rakes, <a href="/a?x=1&amp;y=2">tools</a></p>'] }),
  testPage({ body: ['<p>Salt & pepper &nbps; <b>bold</p>', '<!-- built 2024-01-01 -->'] }),
  testPage({
    body: ['<img src="/a b.png" alt="A spade" width="4" height="3">', '<p id=x>1 < 2</p>'],
  }),
  testPage({ body: ['<form action="/a b"><input type="text" name="q" value="Spades"></form>'] }),
  testPage({ body: ['<!--[if IE]><p>Old</p><![endif]-->', '<div/>', '<p class="a"id="b">x</p>'] }),
  testPage({
    body: ['<script>if (a < b && c) { document.title = "x"; }</script>', '<center>c</center>'],
  }),
  testPage({ body: ['<style>p > a { color: red }</style>', '<ul><p data-id="7">x</p></ul>'] }),
  testPage({
    body: ['<textarea name="t" aria-label="Notes">Fill &amp; send</textarea>', '<p id="">x'],
  }),
  testPage({ body: ['<a href="">Empty</a> <img alt="" src="">', '<label for="">x</label>'] }),
  testPage({
    body: ['<svg><title>Icon</title><path d="M0 0"/></svg>', '<p title="">x</p></span>'],
  }),
  testPage({ head: { title: '<title>Tools &amp; more</title>', charset: null } }),
];

describe('page skeletons for html-validate', () => {
  const direct = new HtmlValidate(new StaticConfigLoader(htmlValidateConfig));

  it.each(corpus.map((html, index) => [index, html]))(
    'page %i gets the same html-validate messages, at the same places, as its full source',
    (_index, html) => {
      const expected = direct
        .validateStringSync(html)
        .results.flatMap((result) => result.messages)
        .map(({ ruleId, message, line, column }) => ({ ruleId, message, line, column }));
      const page = parse(html);
      const found = page.services.htmlValidator.messages(page).map((message) => {
        // html-validate points at a start tag's name or an end tag's `/`, we at the `<`.
        const tag = /^<[/a-zA-Z!]/.test(page.html.slice(message.offset, message.offset + 2));
        const at = tag ? message.offset + 1 : message.offset;
        return { ruleId: message.ruleId, message: message.message, ...page.position(at) };
      });
      expect(found).toEqual(expected);
    },
  );

  it('gives pages of one template the same skeleton', () => {
    const first = testPage({ body: ['<p>Spades, <a href="/spades">see all</a>.</p>'] });
    const second = testPage({
      head: { title: '<title>Rakes for every lawn</title>' },
      body: ['<p>Rakes\n\nand hoes, <a href="/rakes?page=2">see   all</a>!</p>'],
    });
    expect(skeletonOf(second)).toBe(skeletonOf(first));
  });

  it('keeps what html-validate judges: ids, types, empty values, unknown references', () => {
    const base = skeletonOf(testPage({ body: ['<p id="a">x</p>'] }));
    expect(skeletonOf(testPage({ body: ['<p id="b">x</p>'] }))).not.toBe(base);
    const empty = skeletonOf(testPage({ body: ['<img src="" alt="">'] }));
    expect(empty).toContain('<img src="" alt="">');
    expect(skeletonOf(testPage({ body: ['<p>&nbps;</p>'] }))).toContain('&nbps;');
  });

  it('places a cached message on the lines of the page that reuses it', () => {
    const first = testPage({ body: ['<p>Spades</p>', '<center>Rakes</center>'] });
    const second = testPage({ body: ['<p>Spades\n\n\nand shears</p>', '<center>Hoes</center>'] });
    const found = violationsOf(3007, [first, second]);
    expect(found.map((violation) => violation.line)).toEqual([14, 17]);
  });
});
