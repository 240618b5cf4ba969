import { describe, expect, it } from 'vitest';
import { NameTable } from './name-table.js';

describe('NameTable', () => {
  const table = new NameTable([
    ['href', 1],
    ['http-equiv', 2],
    ['h1', 3],
  ] as const);

  it('finds names in place, in any ASCII case', () => {
    const text = '<a HREF=x Http-Equiv=y><H1>';
    expect(table.find(text, 3, 7)).toBe(1);
    expect(table.find(text, 10, 20)).toBe(2);
    expect(table.find(text, 24, 26)).toBe(3);
  });

  it('matches whole names only, and no character that merely folds onto one', () => {
    expect(table.find('hrefs', 0, 5)).toBeUndefined();
    expect(table.find('hre', 0, 3)).toBeUndefined();
    expect(table.find('h\u0011', 0, 2)).toBeUndefined(); // 0x11 | 0x20 is "1"
    expect(table.find('hr\u00e9f', 0, 4)).toBeUndefined();
  });

  it('refuses names that are not lower-case ASCII', () => {
    expect(() => new NameTable([['Href', 1]])).toThrow(/lower-case ASCII/);
  });
});
