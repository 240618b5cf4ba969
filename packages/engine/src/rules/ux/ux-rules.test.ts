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
import { uxRules } from './ux-rules.js';

const clean = testPage();
const body = (...lines: string[]): string => testPage({ body: lines });
const icon = (size: number) =>
  `<a href="/cart"><img src="/cart.svg" alt="Cart" width="${size}" height="${size}"></a>`;

const cases: RuleCase[] = [
  { id: 5001, bad: testPage({ head: { viewport: null } }), at: [3, 1], good: clean },
  {
    id: 5002,
    bad: testPage({
      head: { viewport: '<meta name="viewport" content="width=device-width, user-scalable=no">' },
    }),
    at: [5, 1],
    good: clean,
  },
  { id: 5003, bad: testPage({ htmlAttributes: 'class="home"' }), at: [2, 1], good: clean },
  {
    id: 5004,
    bad: body('<p>To order, <a href="/order">click here</a>.</p>'),
    at: [bodyLine(0), 14],
    good: body('<p><a href="/order">Order a spade</a>.</p>'),
  },
  {
    id: 5005,
    bad: body('<p><a href="/cart"><img src="/cart.svg" alt="" width="24" height="24"></a></p>'),
    at: [bodyLine(0), 4],
    good: body(
      '<p><a href="/cart"><img src="/cart.svg" alt="Cart" width="24" height="24"></a></p>',
    ),
  },
  {
    id: 5006,
    bad: body(
      '<h1>Tools</h1>',
      '<button type="button"><svg width="24" height="24"></svg></button>',
    ),
    at: [bodyLine(1), 1],
    good: body(
      '<button type="button" aria-label="Menu"><svg width="24" height="24"></svg></button>',
    ),
  },
  {
    id: 5007,
    bad: body('<p><a href="https://other.example/" target="_blank">Other shop</a></p>'),
    at: [bodyLine(0), 4],
    good: body(
      '<p><a href="https://other.example/" target="_blank" rel="noopener">Other shop</a></p>',
    ),
  },
  { id: 5008, bad: testPage({ head: { icon: null } }), at: [3, 1], good: clean },
  {
    id: 5009,
    bad: body(
      '<h1>Tools</h1>',
      '<img src="http://cdn.example.com/a.png" alt="" width="4" height="3">',
    ),
    at: [bodyLine(1), 1],
    good: body('<img src="https://cdn.example.com/a.png" alt="" width="4" height="3">'),
  },
  {
    id: 5010,
    bad: body(
      '<form action="/search">',
      '  <input type="search" name="q" placeholder="Search">',
      '</form>',
    ),
    at: [bodyLine(1), 3],
    good: body(
      '<form action="/search">',
      '  <label for="q">Search</label> <input id="q" type="search" name="q">',
      '  <label>Size <select name="size"><option>Small</option></select></label>',
      '  <input type="hidden" name="page" value="1"> <button>Search</button>',
      '</form>',
    ),
  },
  { id: 5011, bad: body(icon(16)), at: [bodyLine(0), 1], good: body(icon(32)) },
  {
    id: 5012,
    bad: body('<h1>Garden tools</h1>', '<h3>Spades</h3>'),
    at: [bodyLine(1), 1],
    good: body('<h1>Garden tools</h1>', '<h2>Spades</h2>', '<h3>Steel</h3>', '<h2>Rakes</h2>'),
  },
  {
    id: 5013,
    bad: body('<video src="/intro.mp4" autoplay></video>'),
    at: [bodyLine(0), 1],
    good: body('<video src="/intro.mp4" autoplay muted></video>'),
  },
  {
    id: 5014,
    bad: body('<p><a href="/spades" tabindex="2">Spades</a></p>'),
    at: [bodyLine(0), 4],
    good: body('<p><a href="/spades" tabindex="0">Spades</a></p>'),
  },
  {
    id: 5015,
    bad: body('<iframe src="https://maps.example/embed"></iframe>'),
    at: [bodyLine(0), 1],
    good: body('<iframe src="https://maps.example/embed" title="Map of the shop"></iframe>'),
  },
  {
    id: 5016,
    bad: pageInput(clean, { facts: { consoleErrors: ['TypeError: items is undefined'] } }),
    at: [3, 1],
    good: pageInput(clean, { facts: { consoleErrors: [] } }),
  },
];

describe('user experience rules', () => {
  it('has a case for every rule of the category', () => {
    expect(caseIds(cases)).toEqual(uxRules.map((rule) => rule.id).sort((a, b) => a - b));
  });

  itChecksRules(cases);

  it('reports each console error of a rendered page with its text, shortened when long', () => {
    const long = `Error: ${'x'.repeat(400)}`;
    const page = pageInput(clean, { facts: { consoleErrors: ['Uncaught Error: boom', long] } });
    const messages = violationsOf(5016, page).map((violation) => violation.message);
    expect(messages).toEqual(['Uncaught Error: boom', `${long.slice(0, 300)}…`]);
  });

  it('finds no mixed content on a plain http page', () => {
    const html = body('<img src="http://cdn.example.com/a.png" alt="" width="4" height="3">');
    expect(violationsOf(5009, pageInput(html, { url: 'http://example.com/tools' }))).toEqual([]);
  });

  it('finds a form that posts over http and a <base> that makes relative addresses insecure', () => {
    const form = body('<form action="http://example.com/search"><button>Go</button></form>');
    expect(violationsOf(5009, form)).toMatchObject([{ line: bodyLine(0), column: 1 }]);
    const based = testPage({
      head: { extra: '<base href="http://static.example.com/">' },
      body: ['<script src="app.js"></script>'],
    });
    expect(violationsOf(5009, based).map((violation) => violation.message)).toEqual([
      'Loads /favicon.svg',
      'Loads app.js',
    ]);
  });

  it.each([
    ['"Read more…"', '<a href="/a">Read more…</a>'],
    ['"More"', '<a href="/a"> More </a>'],
    ['"Click here!"', '<a href="/a">Click <b>here</b>!</a>'],
    ['"[more information]"', '<a href="/a">[more information]</a>'],
    ['"» Learn more"', '<a href="/a">» Learn more</a>'],
  ])('finds the vague link text %s', (_label, link) => {
    expect(violationsOf(5004, body(`<p>${link}</p>`))).toHaveLength(1);
  });

  it.each([
    ['a number', '<a href="/a">2 more</a>'],
    ['more words', '<a href="/a">Read more about spades!</a>'],
    ['another script', '<a href="/a">更多</a>'],
    ['punctuation only', '<a href="/a">…</a>'],
    ['a command name (issue 25)', '<a href="/a">:!start</a>'],
    ['an option name in quotes', '<a href="/a">\'more\'</a>'],
    ['a command inside pre', '</p><pre>Use <a href="/a">go</a> to jump.</pre><p>'],
    ['a name in code', '<code><a href="/a">more</a></code>'],
    ['a name in a code class', '<span class="literal"><a href="/a">start</a></span>'],
  ])('accepts a link text with %s', (_label, link) => {
    expect(violationsOf(5004, body(`<p>${link}</p>`))).toEqual([]);
  });

  it('accepts a vague text when an aria-label says where the link goes', () => {
    const html = body('<p><a href="/a" aria-label="Read more about spades">Read more</a></p>');
    expect(violationsOf(5004, html)).toEqual([]);
  });

  it('reports maximum-scale below 2', () => {
    const viewport = '<meta name="viewport" content="width=device-width, maximum-scale=1.0">';
    const [violation] = violationsOf(5002, testPage({ head: { viewport } }));
    expect(violation?.message).toBe('maximum-scale=1');
  });

  it('reports a button input without a value and a tap target sized by its style', () => {
    expect(violationsOf(5006, body('<input type="button">'))).toHaveLength(1);
    const styled = body('<p><a href="/x" style="width: 20px; height: 20px">Spades</a></p>');
    expect(violationsOf(5011, styled)[0]?.message).toBe('20×20 px');
    const padded = body(
      '<p><a href="/x" style="width: 20px; height: 20px; padding: 8px">x</a></p>',
    );
    expect(violationsOf(5011, padded)).toEqual([]);
  });

  it('reads character references as a browser does', () => {
    expect(violationsOf(5004, body('<p><a href="/a">Read&nbsp;more</a></p>'))).toHaveLength(1);
    expect(violationsOf(5005, body('<p><a href="/a">&nbsp;</a></p>'))).toHaveLength(1);
    const encoded = body('<p><a href="&#104;ttp://cdn.example.com/a.js">Script</a></p>');
    expect(violationsOf(5009, encoded)).toEqual([]); // a link, not a resource
    const script = body('<script src="&#104;ttp://cdn.example.com/a.js"></script>');
    expect(violationsOf(5009, script)[0]?.message).toBe('Loads http://cdn.example.com/a.js');
  });
});
