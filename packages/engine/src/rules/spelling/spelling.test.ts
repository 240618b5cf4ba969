import { describe, expect, it } from 'vitest';
import { bodyLine, testPage, violationsOf } from '../test-support/rule-test.js';

const misspelt = (html: string, spellingIgnore: string[] = []) =>
  violationsOf(2001, html, { spellingIgnore }).map(({ line, column, message }) => ({
    line,
    column,
    message,
  }));
const body = (...lines: string[]): string => testPage({ body: lines });

describe('spell checking visible text', () => {
  it('finds the typos of real English text, each at its line and column', () => {
    const html = body(
      '<p>Teh garden is beautful in spring, and we recieve many visitors.</p>',
      '<p>Most of them admire the tulips; a few ask about the greenhuose.</p>',
    );
    expect(misspelt(html)).toEqual([
      { line: bodyLine(0), column: 4, message: 'Unknown word "Teh"' },
      { line: bodyLine(0), column: 18, message: 'Unknown word "beautful"' },
      { line: bodyLine(0), column: 45, message: 'Unknown word "recieve"' },
      { line: bodyLine(1), column: 56, message: 'Unknown word "greenhuose"' },
    ]);
  });

  it('accepts correct English: names, contractions, possessives, hyphens, typographic quotes', () => {
    const html = body(
      '<p>We didn’t expect London’s gardeners to love our well-known spades.</p>',
      "<p>It's the children's favourite? No: it's their parents' choice &mdash; honestly.</p>",
      '<p>The pre-release is un-American, non-profit and co-founded.</p>',
      '<p>Don&rsquo;t worry, it&#8217;s fine &amp; simple.</p>',
    );
    expect(misspelt(html)).toEqual([
      { line: bodyLine(1), column: 24, message: 'Unknown word "favourite"' },
    ]);
  });

  it('skips code, scripts, styles, keyboard and sample output', () => {
    const html = body(
      '<pre>npm instal linkaudt</pre>',
      '<p>Run <code>linkaudt --verbos</code>, press <kbd>Ctrl+Shft</kbd>, read <samp>eror</samp>.</p>',
      '<script>const mesage = "helo";</script><style>.hedr { colr: red }</style>',
      '<p>The <var>wdth</var> is set.</p>',
    );
    expect(misspelt(html)).toEqual([]);
  });

  it('skips URLs, e-mail addresses, numbers, identifiers and words with digits', () => {
    const html = body(
      '<p>Visit https://exmaple.com/shoop or www.gardn.example and mail info@gardn.example.</p>',
      '<p>Call 0800-12345, see v2 and mp3 files, set maxDepth or LinkAudt, use snake_case_name, PDFs, NASA.</p>',
      '<p>Open settings.json and example.org, then e.g. restart.</p>',
    );
    expect(misspelt(html)).toEqual([]);
  });

  it("accepts the scan's ignore list, whatever the case", () => {
    const html = body('<p>Our Gardnr app works with Spadez.</p>');
    expect(misspelt(html, ['gardnr'])).toEqual([
      { line: bodyLine(0), column: 30, message: 'Unknown word "Spadez"' },
    ]);
    expect(misspelt(html, ['GARDNR', 'spadez'])).toEqual([]);
  });

  it('leaves out text in other languages and text marked not to be checked', () => {
    expect(
      misspelt(testPage({ htmlAttributes: 'lang="de"', body: ['<p>Gartengeräte kaufen</p>'] })),
    ).toEqual([]);
    const html = body(
      '<p lang="fr">Outils de jardin</p>',
      '<p spellcheck="false">Zxqv</p>',
      '<p translate="no">Qwrt</p>',
    );
    expect(misspelt(html)).toEqual([]);
    expect(
      misspelt(testPage({ htmlAttributes: 'lang="en-GB"', body: ['<p>Teh</p>'] })),
    ).toHaveLength(1);
  });

  it('keeps the column right after character references', () => {
    const html = body('<p>Spades &amp; rakes &#8212; teh best.</p>');
    expect(misspelt(html)).toEqual([
      { line: bodyLine(0), column: 31, message: 'Unknown word "teh"' },
    ]);
  });

  it('reads each context under its own rule only', () => {
    const html = testPage({
      head: { title: '<title>Garden tols and spades</title>' },
      body: ['<h1>Tols</h1>', '<p><a href="/a">tols</a> and tols.</p>'],
    });
    const ruleOf = (id: number) => violationsOf(id, html).map((violation) => violation.column);
    expect(ruleOf(2001)).toEqual([30]);
    expect(ruleOf(2004)).toEqual([15]);
    expect(ruleOf(2005)).toEqual([5]);
    expect(ruleOf(2006)).toEqual([17]);
  });

  it('finds repeated words across an element boundary only when nothing separates them', () => {
    expect(violationsOf(2002, body('<p>It is the the best.</p>'))).toHaveLength(1);
    expect(violationsOf(2002, body('<p>Dig. Dig again.</p>'))).toEqual([]);
    expect(violationsOf(2002, body('<p>It is the <b>the</b> best.</p>'))).toEqual([]);
  });

  it('judges a/an only before dictionary words, which are said as written', () => {
    expect(violationsOf(2011, body('<p>Build an rlib, an FAQ or an SVG icon.</p>'))).toEqual([]);
    expect(violationsOf(2011, body('<p>Add an dependency.</p>'))).toHaveLength(1);
  });

  it('finds confused phrases spread over lines and names the right phrase', () => {
    const [violation] = violationsOf(2003, body('<p>It costs more', 'then a rake.</p>'));
    expect(violation).toMatchObject({ line: bodyLine(0), column: 13 });
    expect(violation?.message).toBe('"more then": write "more than"');
  });
});
