import { describe, expect, it } from 'vitest';
import { foldCase } from './fold-case.js';

describe('foldCase', () => {
  it('gives what toLowerCase gives', () => {
    const texts = [
      'http://example.com/a/b.html?x=1#top',
      'HTTP://Example.COM/Path',
      '/caf%C3%A9/ÄÖÜ/İstanbul/ΣΑΣ',
      'already lower, with digits 0123 and symbols -._~!$&()*+,;=:@[]{}',
      'Z',
      '',
    ];
    for (const text of texts) expect(foldCase(text)).toBe(text.toLowerCase());
  });
});
