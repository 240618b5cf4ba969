import { describe, expect, it } from 'vitest';
import {
  bodyLine,
  caseIds,
  itChecksRules,
  testPage,
  violationsOf,
  type RuleCase,
} from '../test-support/rule-test.js';
import { htmlRuleFor, htmlRules } from './html-rules.js';

const clean = testPage();
const body = (...lines: string[]): string => testPage({ body: lines });

const cases: RuleCase[] = [
  {
    id: 3001,
    bad: body('<p><b>Bold <i>both</b> italic</i></p>'),
    at: [bodyLine(0), 12],
    good: body('<p><b>Bold <i>both</i></b> italic</p>'),
  },
  {
    id: 3002,
    bad: body('<p id="spades">Spades</p>', '<p id="spades">Rakes</p>'),
    at: [bodyLine(1), 8],
    good: body('<p id="spades">Spades</p>', '<p id="rakes">Rakes</p>'),
  },
  {
    id: 3003,
    bad: body('<ul><p>Spades</p></ul>'),
    at: [bodyLine(0), 5],
    good: body('<ul><li>Spades</li></ul>'),
  },
  { id: 3004, bad: testPage({ head: { title: null } }), at: [3, 1], good: clean },
  {
    id: 3005,
    bad: body('<button type="sumbit">Buy</button>'),
    at: [bodyLine(0), 15],
    good: body('<button type="submit">Buy</button>'),
  },
  {
    id: 3006,
    bad: body('<img alt="Spade" width="40" height="30">'),
    at: [bodyLine(0), 1],
    good: body('<img src="/spade.png" alt="Spade" width="40" height="30">'),
  },
  {
    id: 3007,
    bad: body('<h1>Tools</h1>', '<center>Spades</center>'),
    at: [bodyLine(1), 1],
    good: body('<h1>Tools</h1>', '<p class="centred">Spades</p>'),
  },
  {
    id: 3008,
    bad: testPage({ head: { extra: '<title>Second title</title>' } }),
    at: [10, 1],
    good: clean,
  },
  { id: 3009, bad: testPage({ doctype: '<!-- no doctype -->' }), at: [1, 1], good: clean },
  {
    id: 3010,
    bad: body('<p>Spades &nbps; rakes</p>'),
    at: [bodyLine(0), 11],
    good: body('<p>Spades &amp; rakes&nbsp;&#8212; shears &copy;</p>'),
  },
  {
    id: 3011,
    bad: body('<p class="a" class="b">Spades</p>'),
    at: [bodyLine(0), 14],
    good: body('<p class="a b">Spades</p>'),
  },
  {
    id: 3012,
    bad: body('<p id="two words">Spades</p>'),
    at: [bodyLine(0), 8],
    good: body('<p id="two-words">Spades</p>'),
  },
  { id: 3013, bad: body('<div/>'), at: [bodyLine(0), 5], good: body('<div></div>') },
  {
    id: 3014,
    bad: body('<h1>Tools</h1>', '<my_widget>Spades</my_widget>'),
    at: [bodyLine(1), 1],
    good: body('<h1>Tools</h1>', '<my-widget>Spades</my-widget>'),
  },
  {
    id: 3099,
    bad: body('<p class="a"id="b">Spades</p>'),
    at: [bodyLine(0), 13],
    good: body('<p class="a" id="b">Spades</p>'),
  },
];

describe('valid HTML rules', () => {
  it('has a case for every rule of the category', () => {
    expect(caseIds(cases)).toEqual(htmlRules.map((rule) => rule.id).sort((a, b) => a - b));
  });

  itChecksRules(cases);

  it('maps html-validate rules without an entry of their own to Other HTML error', () => {
    expect(htmlRuleFor('no-dup-id')).toBe(3002);
    expect(htmlRuleFor('aria-label-misuse')).toBe(3099);
    expect(htmlRuleFor('some-future-rule')).toBe(3099);
  });

  it("reports html-validate's message and each occurrence", () => {
    const found = violationsOf(3007, body('<center>a</center>', '<font>b</font>'));
    expect(found.map(({ line, column, message }) => [line, column, message])).toEqual([
      [bodyLine(0), 1, '<center> is deprecated: use CSS instead'],
      [bodyLine(1), 1, '<font> is deprecated: use CSS instead'],
    ]);
  });

  it('reports a stray end tag at its `</`', () => {
    const [violation] = violationsOf(3001, body('<p>Spades</p></div>'));
    expect(violation).toMatchObject({ line: bodyLine(0), column: 14 });
  });

  it('reports pages too deep or too large to validate instead of calling them valid', () => {
    const deep = body('<div>'.repeat(1001) + '</div>'.repeat(1001));
    expect(violationsOf(3099, deep)).toMatchObject([
      {
        line: 1,
        column: 1,
        message: 'Not validated: elements nested 1003 levels deep (limit 1000)',
      },
    ]);
    const unclosed = body('<a href="/x">'.repeat(1001));
    expect(violationsOf(3099, unclosed)[0]?.message).toBe(
      'Not validated: 1001 elements are never closed (limit 1000)',
    );
    const large = body('<p>x</p>'.repeat(130_000));
    expect(violationsOf(3099, large)[0]?.message).toMatch(
      /^Not validated: \d+ characters of markup/,
    );
  });

  it('validates a page whose inline SVG self-closes thousands of elements', () => {
    const icons = body(`<svg viewBox="0 0 10 10">${'<path d="M0 0h1v1z"/>'.repeat(1500)}</svg>`);
    expect(violationsOf(3099, icons)).toEqual([]);
  });

  it('reports an obsolete element once, under 3007, wherever it stands (issue 25)', () => {
    const html = body('<p><b><font color="red">Spades</font></b> <center>Rakes</center></p>');
    expect(violationsOf(3003, html)).toEqual([]);
    expect(violationsOf(3007, html).length).toBeGreaterThanOrEqual(2);
    expect(violationsOf(3003, body('<ul><p>Spades</p></ul>'))).toHaveLength(1);
  });

  it('leaves a missing lang to 5003, and a tbody after parsed rows alone', () => {
    const page = testPage({ htmlAttributes: 'class="home"' });
    expect(violationsOf(3006, page)).toEqual([]);
    expect(violationsOf(5003, page)).toHaveLength(1);
    const table = body(
      '<table><caption>Tools</caption><tr><th>Tool</th></tr>',
      '<tbody><tr><td>Spade</td></tr></tbody></table>',
    );
    expect(violationsOf(3003, table)).toEqual([]);
  });
});
