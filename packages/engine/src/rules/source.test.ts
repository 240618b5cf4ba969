import { describe, expect, it } from 'vitest';
import { SourceText } from './source.js';

describe('decoded texts located in the page source', () => {
  it('maps every decoded character back to where it was written', () => {
    // Offsets in the raw text:   0 1-5   6 7 8-14    15 16-20 21
    const text = SourceText.decode('a&amp;b &#8217;c&shy;d', 100);
    expect(text.text).toBe('a&b \u2019cd');
    const offsets = [...text.text].map((_char, index) => text.offset(index));
    expect(offsets).toEqual([100, 101, 106, 107, 108, 115, 121]);
    expect(text.offset(text.text.length)).toBe(122); // just past the end
  });

  it('counts a reference decoded to two code units as two characters at one place', () => {
    const text = SourceText.decode('x&#128512;y', 0);
    expect(text.text).toBe('x\u{1f600}y');
    expect([0, 1, 2, 3].map((index) => text.offset(index))).toEqual([0, 1, 1, 10]);
  });

  it('needs no map for a text without references', () => {
    const text = SourceText.decode('plain words', 40);
    expect(text.offset(6)).toBe(46);
  });
});
