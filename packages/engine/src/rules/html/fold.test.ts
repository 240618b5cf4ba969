import { HtmlValidate, StaticConfigLoader } from 'html-validate';
import { standard } from 'html-validate/presets';
import html5 from 'html-validate/elements/html5';
import { describe, expect, it } from 'vitest';
import { ParsedPage } from '../page.js';
import { ScanServices } from '../services.js';
import { pageInput, testPage } from '../test-support/rule-test.js';
import { countingParents, foldableAttributes, foldableTags, foldSkeleton } from './fold.js';
import { buildSkeleton } from './skeleton.js';
import { htmlValidateConfig } from './validator.js';

const parse = (html: string) => new ParsedPage(pageInput(html), new ScanServices());
const repeat = (times: number, piece: string) => Array.from({ length: times }, () => piece);

// Repeated inline markup where folding must hold back: ids, self-closed tags, stray end tags,
// comments and directives among the copies, counted and ordered parents, the head.
const corpus = [
  testPage({
    body: [
      '<pre>Vim <a name="usr">x</a><b>*usr*</b> see <a href="a.html#x">x</a>, <a href="b.html">b</a>',
      ...repeat(
        3,
        'then <a name="t1"></a><b>*t*</b> <a href="c.html">c</a> <font color="red">r</font>',
      ),
      'and <a name="t&amp;">t</a> <a name="">e</a> <A NAME="UP">u</A></pre>',
    ],
  }),
  testPage({
    body: [
      '<p><b>Salt &nbps;</b> & <b>Salt &nbps;</b> <b>Salt &nbps;</b> <tt>t</tt><tt>t</tt></p>',
      '<p><b><a href="/a">a</a><a href="/b">b</a></b> <b><a href="/c">c</a><a href="/d">d</a></b></p>',
    ],
  }),
  testPage({
    body: [
      '<p><span id="a">x</span><span id="a">x</span> <b/>y</b> <b/>y</b></p>',
      '<p><b>x</b>y</i>z<b>x</b> <b>x</b><!-- note --><b>x</b></p>',
      '<p><i>a</i><i>a</i><strike>s</strike><strike>s</strike></p>',
    ],
  }),
  testPage({
    body: ['<p><!-- [html-validate-disable-next deprecated] --><font>a</font><font>b</font></p>'],
  }),
  testPage({
    body: [
      '<figure><b>x</b><figcaption>c</figcaption><b>y</b><b>z</b></figure>',
      '<table><tr><td><tt>1</tt><tt>2</tt></td><td><tt>1</tt></td></tr></table>',
      '<ul><li><a href="/x">x</a></li><li><a href="/x">x</a></li><b>stray</b><b>stray</b></ul>',
      '<p><a href="/x"><a href="/y">y</a></a><a href="/x"><a href="/y">y</a></a></p>',
    ],
  }),
  '<!doctype html><html><head><title>T</title><b>x</b><b>x</b></head><body><p><big>a</big><big>a</big></p></body></html>',
];

describe('repeated inline markup validated once', () => {
  const direct = new HtmlValidate(new StaticConfigLoader(htmlValidateConfig));

  it.each(corpus.map((html, index) => [index, html]))(
    'page %i gets the messages html-validate gives its whole source, in its order',
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

  it('folds where it may: the pages above test folding, not only the skeleton', () => {
    const folds = corpus.map((html) => {
      const page = parse(html);
      return foldSkeleton(page, buildSkeleton(page)) !== undefined;
    });
    // The page with an html-validate directive is validated whole.
    expect(folds).toEqual([true, true, true, false, true, true]);
  });

  it('hands html-validate one copy of each piece a parent repeats, and puts the messages back', () => {
    const anchors = repeat(200, '\n<a name="tag">x</a><b>*tag*</b> <a href="x.html">x</a>');
    const page = parse(testPage({ body: ['<pre>', ...anchors, '</pre>'] }));
    const skeleton = buildSkeleton(page);
    const folded = foldSkeleton(page, skeleton);
    if (!folded) throw new Error('the page repeats its links');
    expect(folded.source.match(/<a /g)).toHaveLength(2);
    expect(folded.source.length).toBeLessThan(skeleton.length / 5);
    const obsolete = page.services.htmlValidator
      .messages(page)
      .filter((message) => message.ruleId === 'no-deprecated-attr');
    expect(obsolete).toHaveLength(200);
    expect(obsolete.map((message) => page.html.slice(message.offset, message.offset + 9))).toEqual(
      repeat(200, 'name="tag'),
    );
  });
});

describe("what folding assumes of html-validate's rules and element metadata", () => {
  type Meta = {
    permittedContent?: unknown[];
    permittedOrder?: string[];
    implicitClosed?: string[];
  };
  const elements = Object.entries(html5 as Record<string, Meta>);
  const named = (list: unknown[] | undefined) =>
    (list ?? []).filter((item): item is string => typeof item === 'string');

  it('no element counts, orders or closes the foldable ones, outside the parents left alone', () => {
    for (const [name, meta] of elements) {
      const counted = named(meta.permittedContent).filter((item) => /[?*]$/.test(item));
      if (meta.permittedOrder || counted.length > 0) expect(countingParents).toContain(name);
      const closers = named(meta.implicitClosed);
      // Only <head> closes on a category (flow content): folding never looks inside the head.
      if (name !== 'head') for (const tag of foldableTags) expect(closers).not.toContain(tag);
    }
    for (const tag of foldableTags) {
      const meta = (html5 as Record<string, Meta>)[tag];
      expect(meta?.implicitClosed).toBeUndefined();
      expect(meta?.permittedOrder).toBeUndefined();
    }
  });

  it('runs the rules whose reach was read when folding was written', () => {
    // A rule added to the preset may compare an element with others: read it, then extend this.
    const rules = Object.keys(standard.rules ?? {}).sort();
    expect(rules).toEqual(
      [
        'area-alt',
        'aria-label-misuse',
        'attr-spacing',
        'attribute-allowed-values',
        'attribute-misuse',
        'close-attr',
        'close-order',
        'deprecated',
        'deprecated-rule',
        'doctype-html',
        'element-name',
        'element-permitted-content',
        'element-permitted-occurrences',
        'element-permitted-order',
        'element-permitted-parent',
        'element-required-ancestor',
        'element-required-attributes',
        'element-required-content',
        'map-dup-name',
        'map-id-name',
        'multiple-labeled-controls',
        'no-abstract-role',
        'no-deprecated-attr',
        'no-dup-attr',
        'no-dup-id',
        'no-multiple-main',
        'no-raw-characters',
        'no-unused-disable',
        'script-element',
        'unrecognized-char-ref',
        'valid-autocomplete',
        'valid-for',
        'valid-id',
        'void-content',
      ].sort(),
    );
    expect(Object.keys(htmlValidateConfig.rules ?? {}).sort()).toEqual(
      ['deprecated-rule', 'missing-doctype', 'no-self-closing', 'no-unused-disable'].sort(),
    );
    expect(foldableAttributes).not.toContain('id');
  });
});
