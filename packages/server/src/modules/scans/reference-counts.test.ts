import { describe, expect, it } from 'vitest';
import { ReferenceCounts } from './reference-counts.js';

describe('reference counts kept by the results writer', () => {
  it('names only the targets linked again after their row was written, with their count', () => {
    const counts = new ReferenceCounts();
    counts.add(1);
    counts.add(1);
    counts.add(2);
    // Rows written now carry 2 and 1.
    expect([counts.store(1), counts.store(2)]).toEqual([2, 1]);
    counts.add(2);
    counts.add(3);
    counts.add(2);
    expect(counts.store(3)).toBe(1);
    expect(counts.changed()).toEqual([[2, 3]]);
  });

  it('counts targets far beyond its first size, as a big scan has them', () => {
    const counts = new ReferenceCounts();
    const targets = 300_000;
    for (let id = 1; id <= targets; id++) counts.add(id);
    for (let id = 1; id <= targets; id++) expect(counts.store(id)).toBe(1);
    for (let id = 1; id <= targets; id += 1000) counts.add(id);
    const changed = counts.changed();
    expect(changed).toHaveLength(targets / 1000);
    expect(changed[0]).toEqual([1, 2]);
    expect(changed.at(-1)).toEqual([299_001, 2]);
  });
});
