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
import { performanceRules } from './performance-rules.js';

const clean = testPage();
const body = (...lines: string[]): string => testPage({ body: lines });
const extraHead = (line: string): string => testPage({ head: { extra: line } });
const sized = 'alt="" width="40" height="30"';
// Head requests of the clean page: its icon and its style sheet.
const manyImages = Array.from({ length: 60 }, (_, index) => `<img src="/i${index}.png" ${sized}>`);

const cases: RuleCase[] = [
  { id: 1001, bad: pageInput(clean, { bytes: 200_000 }), at: [2, 1], good: clean },
  { id: 1002, bad: testPage({ body: manyImages }), at: [bodyLine(48), 1], good: clean },
  {
    id: 1003,
    bad: pageInput(clean, { compressed: false, bytes: 5000 }),
    at: [2, 1],
    good: pageInput(clean, { compressed: false, bytes: 900 }),
  },
  {
    id: 1004,
    bad: pageInput(clean, { headers: { 'content-type': 'text/html' } }),
    at: [2, 1],
    good: pageInput(clean, { headers: { etag: '"abc"' } }),
  },
  {
    id: 1005,
    bad: extraHead('<script src="/app.js"></script>'),
    at: [10, 1],
    good: testPage({
      head: { extra: '<script src="/app.js" defer></script>' },
      body: ['<h1>Garden tools</h1>', '<script src="/late.js"></script>'],
    }),
  },
  {
    id: 1006,
    bad: extraHead('<style>@import url(/more.css);</style>'),
    at: [10, 8],
    good: extraHead('<style>p { color: green }</style>'),
  },
  {
    id: 1007,
    bad: body(`<img ${sized} src="data:image/png;base64,${'A'.repeat(5000)}">`),
    at: [bodyLine(0), 1],
    good: body(`<img ${sized} src="data:image/png;base64,${'A'.repeat(100)}">`),
  },
  {
    id: 1008,
    bad: body('<h1>Tools</h1>', `<script>const data = "${'a'.repeat(20_001)}";</script>`),
    at: [bodyLine(1), 1],
    good: body('<h1>Tools</h1>', '<script>const data = "small";</script>'),
  },
  {
    id: 1009,
    bad: pageInput(clean, { redirects: [{ url: 'https://example.com/old', statusCode: 301 }] }),
    at: [2, 1],
    good: pageInput(clean, {
      isStartPage: true,
      redirects: [{ url: 'http://example.com/', statusCode: 301 }],
    }),
  },
  {
    id: 1010,
    bad: body('<p><img src="/photo.bmp" alt="" width="40" height="30"></p>'),
    at: [bodyLine(0), 4],
    good: body('<p><img src="/photo.webp" alt="" width="40" height="30"></p>'),
  },
  {
    id: 1011,
    bad: body('<h1>Tools</h1>', '  <img src="/a.png" alt="" width="40">'),
    at: [bodyLine(1), 3],
    good: body('<img src="/a.png" alt="" style="width: 100%; aspect-ratio: 4/3">'),
  },
  {
    id: 1012,
    bad: body(`<img src="/a.png" srcset="/a-400.png 400w, /a-800.png 800w" ${sized}>`),
    at: [bodyLine(0), 1],
    good: body(`<img src="/a.png" srcset="/a-2x.png 2x" ${sized}>`),
  },
  {
    // The clean page has 10 elements up to <body>; the 1,501st is body element 1,491.
    id: 1013,
    bad: testPage({ body: Array.from({ length: 1500 }, () => '<p>Spade</p>') }),
    at: [bodyLine(1490), 1],
    good: testPage({ body: Array.from({ length: 1400 }, () => '<p>Spade</p>') }),
  },
  {
    // <html> is level 1 and <body> level 2, so the 31st nested div is level 33.
    id: 1014,
    bad: body('<div>'.repeat(40) + '</div>'.repeat(40)),
    at: [bodyLine(0), 30 * 5 + 1],
    good: body('<div>'.repeat(30) + '</div>'.repeat(30)),
  },
  {
    id: 1015,
    bad: body('<h1>Tools</h1>', '<script>document.write("<p>Spades</p>")</script>'),
    at: [bodyLine(1), 9],
    good: body('<h1>Tools</h1>', '<script>document.body.append("Spades")</script>'),
  },
];

describe('web performance rules', () => {
  it('has a case for every rule of the category', () => {
    expect(caseIds(cases)).toEqual(performanceRules.map((rule) => rule.id).sort((a, b) => a - b));
  });

  itChecksRules(cases);

  it('counts each address once and a srcset as one request', () => {
    const repeated = Array.from({ length: 60 }, () => `<img src="/same.png" ${sized}>`);
    expect(violationsOf(1002, testPage({ body: repeated }))).toEqual([]);
  });

  it('reports links to addresses the engine saw redirect, when it passes that fact', () => {
    const html = body('<p>See the <a href="/old-tools#top">old tools</a>.</p>');
    const facts = { redirectingLinks: new Set(['https://example.com/old-tools']) };
    const [violation] = violationsOf(1009, pageInput(html, { facts }));
    expect(violation).toMatchObject({ line: bodyLine(0), column: 12 });
    expect(violation?.message).toBe('https://example.com/old-tools redirects');
  });

  it('names the redirect chain, and reports a start page that took two hops', () => {
    const redirects = [
      { url: 'http://example.com/', statusCode: 301 },
      { url: 'https://example.com/', statusCode: 302 },
    ];
    const [violation] = violationsOf(1009, pageInput(clean, { redirects, isStartPage: true }));
    expect(violation?.message).toBe(
      'Reached through http://example.com/ (301) → https://example.com/ (302) → https://example.com/tools',
    );
  });

  it('does not count JSON data or module scripts as render-blocking', () => {
    const html = extraHead('<script type="module" src="/app.js"></script>');
    expect(violationsOf(1005, html)).toEqual([]);
  });
});
