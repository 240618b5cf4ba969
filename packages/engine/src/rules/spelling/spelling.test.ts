import { describe, expect, it } from 'vitest';
import { createRuleRunner } from '../runner.js';
import { bodyLine, pageInput, testPage, violationsOf } from '../test-support/rule-test.js';
import { maxHeldFindings, termPages } from './vocabulary.js';

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
      '<p>The garden is beautful in spring, and we recieve many visitors.</p>',
      '<p>Most of them admire the tulips; a few ask about the greenhuose.</p>',
    );
    expect(misspelt(html)).toEqual([
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
    // British spellings ("favourite") are English too (issue 25).
    expect(misspelt(html)).toEqual([]);
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
    const html = body('<p>Our rakse app works with sapdes.</p>');
    expect(misspelt(html, ['RAKSE'])).toEqual([
      { line: bodyLine(0), column: 29, message: 'Unknown word "sapdes"' },
    ]);
    expect(misspelt(html, ['rakse', 'SAPDES'])).toEqual([]);
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
      misspelt(testPage({ htmlAttributes: 'lang="en-GB"', body: ['<p>recieve</p>'] })),
    ).toHaveLength(1);
  });

  it('keeps the column right after character references', () => {
    const html = body('<p>Spades &amp; rakes &#8212; recieve them.</p>');
    expect(misspelt(html)).toEqual([
      { line: bodyLine(0), column: 31, message: 'Unknown word "recieve"' },
    ]);
  });

  it('reads each context under its own rule only', () => {
    const html = testPage({
      head: { title: '<title>Garden tols and spades</title>' },
      body: ['<h1>All tols</h1>', '<p><a href="/a">tols</a> and tols.</p>'],
    });
    const ruleOf = (id: number) => violationsOf(id, html).map((violation) => violation.column);
    expect(ruleOf(2001)).toEqual([30]);
    expect(ruleOf(2004)).toEqual([15]);
    expect(ruleOf(2005)).toEqual([9]);
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

  it('reads a word and its upper-case keyword as no repetition (issue 25)', () => {
    const keywords = body('<p>Combine them with and AND, or OR, or in IN.</p>');
    expect(violationsOf(2002, keywords)).toEqual([]);
    expect(violationsOf(2002, body('<p>The the rake.</p>'))).toHaveLength(1);
  });

  it('accepts "could of course" and still finds "could of" (issue 25)', () => {
    expect(violationsOf(2003, body('<p>You could of course dig.</p>'))).toEqual([]);
    expect(violationsOf(2003, body('<p>This must of course', 'be dug.</p>'))).toEqual([]);
    const [slip] = violationsOf(2003, body('<p>You could of dug.</p>'));
    expect(slip?.message).toBe('"could of": write "could have"');
    expect(violationsOf(2003, body('<p>It could of.</p>'))).toHaveLength(1);
  });

  it('takes "A is" and "a and b" for names, and suggests deleting the article of "an the"', () => {
    const names = body('<p>If A is set, then A and B are too; where a is small.</p>');
    expect(violationsOf(2011, names)).toEqual([]);
    const [typo] = violationsOf(2011, body('<p>It ends in an the conflict.</p>'));
    expect(typo?.message).toBe('"an the": delete "an", or write "and the"');
    expect(violationsOf(2011, body('<p>Add a apple.</p>'))[0]?.message).toBe(
      '"a apple": write "an apple"',
    );
  });

  it('skips code by its class, and options, commands and calls in the prose', () => {
    const html = body(
      '<p>Set <span class="literal">recieve</span> and <tt class="option">beautful</tt>.</p>',
      '<div class="highlight-python"><p>recieve</p></div>',
      '<p>Run --recieve, :recieve or recieve() and <span class="filename">beautful</span>.</p>',
    );
    expect(misspelt(html)).toEqual([]);
  });

  it("reports only unknown words that look like slips, not the trade's words", () => {
    const html = body(
      '<p>The callout of subdirectories is untrusted: gzipped, awaitable Graphviz idx.</p>',
      '<p>Publically, the glossarys are a recieve.</p>',
    );
    // "Publically" starts a sentence and is a known common misspelling: a slip, not a name.
    expect(misspelt(html).map(({ message }) => message)).toEqual([
      'Unknown word "Publically"',
      'Unknown word "glossarys"',
      'Unknown word "recieve"',
    ]);
  });

  it('finds known common misspellings that look like names, compounds or affixed words', () => {
    const html = body(
      '<p>Teh mesage was excelent. The choise is yours; untill then it occured twice.</p>',
      '<p>Ask Teh Mathematisch group (names inside a sentence stay names).</p>',
    );
    expect(misspelt(html).map(({ message }) => message)).toEqual([
      'Unknown word "Teh"',
      'Unknown word "mesage"',
      'Unknown word "excelent"',
      'Unknown word "choise"',
      'Unknown word "untill"',
      'Unknown word "occured"',
    ]);
  });
});

describe("the site's vocabulary", () => {
  const page = (path: string, ...lines: string[]) => ({
    ...pageInput(testPage({ body: lines })),
    url: `https://example.com/${path}`,
  });
  const misspeltOn = (pages: ReturnType<typeof page>[], ruleId = 2001) =>
    violationsOf(ruleId, pages).map(({ url, message }) => `${url} ${message}`);

  it(`takes a word on ${termPages} pages for a term, one on fewer for a slip`, () => {
    const pages = Array.from({ length: termPages }, (_, n) =>
      page(`${n}.html`, '<p>Our recieve sapdes screen.</p>', n === 0 ? '<p>Steel trowl.</p>' : ''),
    );
    // "recieve" is a known common misspelling: a template repeating it does not make it a term.
    expect(misspeltOn(pages)).toEqual([
      'https://example.com/0.html Unknown word "recieve"',
      'https://example.com/0.html Unknown word "trowl"',
      ...pages.slice(1).map(({ url }) => `${url} Unknown word "recieve"`),
    ]);
    expect(misspeltOn(pages.slice(1))).toHaveLength(2 * (termPages - 1));
  });

  it('takes words of code, navigation links and headings (on two pages) for terms', () => {
    const pages = [
      page('a.html', '<p>Use the recieve call and trowl.</p>', '<nav><a href="/b">Prevv</a></nav>'),
      page('b.html', '<h2>Beautful</h2>', '<p>Later, <code>recieve()</code> runs.</p>'),
      page('c.html', '<h2>All sapdes</h2>', '<p>sapdes</p>', '<p><a href="/x">prevv</a></p>'),
      page('d.html', '<h2>All sapdes</h2>'),
    ];
    // "recieve" is in code on b, a later page; "prevv" a navigation link on a; "sapdes" in
    // headings and outside them, on several pages. "trowl" is none of these.
    expect(misspeltOn(pages)).toEqual(['https://example.com/a.html Unknown word "trowl"']);
  });

  it('holds the findings until the scan ends, and reports at once past its bound', () => {
    const runner = createRuleRunner({ selectedRules: [2001] });
    expect(runner.checkPage(page('a.html', '<p>A trowl rake.</p>'))).toEqual([]);
    expect(runner.finishSite().map(({ message }) => message)).toEqual(['Unknown word "trowl"']);
    expect(maxHeldFindings).toBeGreaterThan(1000);
  });
});
