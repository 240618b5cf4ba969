import { describe, expect, it } from 'vitest';
import { collapse } from './dom.js';

/** What collapse must equal: the replace it skips for texts that are collapsed already. */
const byRegex = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('collapse', () => {
  it.each([
    ['', ''],
    ['Read more', 'Read more'],
    ['  Read\n\tmore  ', 'Read more'],
    ['Read  more', 'Read more'],
    ['Read\u00a0more', 'Read more'],
    [' ', ''],
    ['\u3000Title\u2003', 'Title'],
  ])('collapses %j to %j', (text, expected) => {
    expect(collapse(text)).toBe(expected);
  });

  it('agrees with the regular expression on every short text of spaces and letters', () => {
    const alphabet = [' ', '\n', '\t', '\u00a0', '\u2028', '\ufeff', 'a', 'b', '-'];
    let texts = [''];
    for (let length = 1; length <= 5; length++) {
      texts = texts.flatMap((text) => alphabet.map((char) => text + char));
      for (const text of texts) expect(collapse(text), JSON.stringify(text)).toBe(byRegex(text));
    }
  });
});
