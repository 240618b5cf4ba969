import { describe, expect, it } from 'vitest';
import {
  bodyLine,
  caseIds,
  itChecksRules,
  testPage,
  type RuleCase,
} from '../test-support/rule-test.js';
import { spellingRules } from './spelling-rules.js';

const clean = testPage();
const body = (...lines: string[]): string => testPage({ body: lines });
const description = (text: string) => `<meta name="description" content="${text}">`;
const goodDescription =
  'Spades, rakes and pruning shears for small gardens, with advice on choosing and caring for each tool.';

const cases: RuleCase[] = [
  {
    id: 2001,
    bad: body('<p>Our spades are forged from stel.</p>'),
    at: [bodyLine(0), 31],
    good: clean,
  },
  {
    id: 2002,
    bad: body('<p>Our spades are are forged from steel.</p>'),
    at: [bodyLine(0), 19],
    good: body('<p>The rake we had had a broken handle.</p>'),
  },
  {
    id: 2003,
    bad: body('<p>You should of ordered a spade.</p>'),
    at: [bodyLine(0), 8],
    good: body('<p>You should have ordered a spade.</p>'),
  },
  {
    id: 2004,
    bad: testPage({ head: { title: '<title>Garden tols for every season</title>' } }),
    at: [6, 15],
    good: clean,
  },
  {
    id: 2005,
    bad: body('<h1>Garden tols</h1>'),
    at: [bodyLine(0), 12],
    good: clean,
  },
  {
    id: 2006,
    bad: body('<p><a href="/spades">Steel spdes</a></p>'),
    at: [bodyLine(0), 28],
    good: body('<p><a href="/spades">Steel spades</a></p>'),
  },
  {
    id: 2007,
    bad: body('<img src="/a.png" alt="A steel spdae" width="4" height="3">'),
    at: [bodyLine(0), 32],
    good: body('<img src="/a.png" alt="A steel spade" width="4" height="3">'),
  },
  {
    id: 2008,
    bad: testPage({
      head: { description: description(goodDescription.replace('shears', 'shaers')) },
    }),
    at: [7, 61],
    good: clean,
  },
  {
    id: 2009,
    bad: body('<button type="submit">Find spdes</button>'),
    at: [bodyLine(0), 28],
    good: body(
      '<button type="submit">Search</button>',
      '<input type="search" placeholder="Spades">',
    ),
  },
  {
    id: 2010,
    bad: body('<p title="Steel trowl">Spades</p>'),
    at: [bodyLine(0), 17],
    good: body('<p title="Forged steel" aria-label="Spades">Spades</p>'),
  },
  {
    id: 2011,
    bad: body('<p>Buy a spade and a apple.</p>'),
    at: [bodyLine(0), 20],
    good: body('<p>Buy an apple, a spade, an hour of advice and a one-year guarantee.</p>'),
  },
  {
    id: 2012,
    bad: body('<p>Yesterday i bought a spade.</p>'),
    at: [bodyLine(0), 14],
    good: body('<p>Yesterday I bought a spade; see figure i.</p>'),
  },
];

describe('spelling rules', () => {
  it('has a case for every rule of the category', () => {
    expect(caseIds(cases)).toEqual(spellingRules.map((rule) => rule.id).sort((a, b) => a - b));
  });

  itChecksRules(cases);
});
