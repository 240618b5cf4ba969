// Suggestions for typos (issue 37): two swapped letters are one slip, as people make them.
import { describe, expect, it } from 'vitest';
import { closestAnchor } from './closest-anchor.js';
import { editSimilarity } from './similarity.js';

describe('edit similarity', () => {
  it('counts two swapped neighbouring letters as one edit (optimal string alignment)', () => {
    expect(editSimilarity('tema', 'team')).toBe(0.75);
    expect(editSimilarity('recieve', 'receive')).toBeCloseTo(1 - 1 / 7);
    expect(editSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7); // plain edits as before
    expect(editSimilarity('ca', 'abc')).toBeCloseTo(1 - 3 / 3); // no edit of a swapped pair again
  });

  it('suggests #team for a link to #tema', () => {
    expect(closestAnchor('#tema', ['team', 'contact', 'pricing'])).toEqual({
      id: 'team',
      confidence: 0.75,
    });
  });
});
