import { describe, expect, it } from 'vitest';
import { crawlerTrap } from './crawler-traps.js';

const now = new Date('2026-11-25T00:00:00Z');

describe('crawler traps', () => {
  it.each([
    ['/docs/docs/docs/', 'the path repeats "docs/" 3 times in a row'],
    ['/a/b/a/b/a/b/index.html', 'the path repeats "a/b/" 3 times in a row'],
    ['/x/y/z/x/y/z/x/y/z', 'the path repeats "x/y/z/" 3 times in a row'],
    [
      `/${Array.from({ length: 33 }, (_, i) => `s${i}`).join('/')}`,
      'the path has 33 segments, more than 32',
    ],
    ['/search?page=1&page=2&page=3', 'the query repeats the parameter "page" 3 times'],
    [`/q?x=${'a'.repeat(1100)}`, 'the query string is 1102 characters long, more than 1024'],
    ['/calendar/2037/01/', 'a calendar date in 2037, more than 10 years ahead'],
    ['/events?date=2040-06-01', 'a calendar date in 2040, more than 10 years ahead'],
    ['/events?year=2099', 'a calendar date in 2099, more than 10 years ahead'],
  ])('%s is a trap: %s', (url, why) => {
    expect(crawlerTrap(url, now)).toBe(why);
  });

  it.each([
    '/',
    '/docs/index.html',
    '/en/3.11/library/os.path.html',
    '/api/org/jsoup/nodes/Element.html',
    '/a/a/b/',
    '/1/1/2/',
    '/tag?t=a&t=b',
    '/blog/2026/11/25/post.html',
    '/archive/1998/03/',
    '/calendar/2036/12/',
    '/products/4521/7',
    '/search?q=a&page=2&sort=new',
    `/${Array.from({ length: 32 }, (_, i) => `s${i}`).join('/')}`,
  ])('%s is not a trap', (url) => {
    expect(crawlerTrap(url, now)).toBeUndefined();
  });
});
