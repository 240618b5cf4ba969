// Spelling on real pages with real misspellings (issue 37): Debian's libxslt, valgrind and socat
// documentation with the misspellings their authors left, and common slips ("Teh", "mesage",
// "excelent", "choise", "recieve", "definately") planted into their real sentences. The
// misspelling rules must keep their precision (issue 25) and find nine in ten misspellings.
// Figures: `node bench/spelling.mjs` (docs/benchmarks.md, "Spelling").
import { createRuleRunner } from '@linkaudit/engine/rules';
import { describe, expect, it } from 'vitest';
import { findMisspellings, measureSpelling } from './spelling/measure.mjs';

describe('misspellings on real pages (corpus/spelling)', () => {
  const measure = measureSpelling(createRuleRunner);

  it('keeps precision at 95 % or more and recall at 90 % or more', () => {
    // The one false alarm: "per mille", Latin in a changelog.
    expect(measure.wrong).toEqual(['libxslt-news.html mille']);
    expect(measure.precision).toBeGreaterThanOrEqual(0.95);
    expect(measure.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('finds the common slips the issue saw missed, capitalised at a sentence start too', () => {
    const found = findMisspellings(createRuleRunner);
    for (const slip of [
      'valgrind-quick-start.html teh',
      'valgrind-quick-start.html mesage',
      'valgrind-authors.html excelent',
      'socat-genericsocket.html choise',
      'socat-multicast.html recieve',
      'valgrind-quick-start.html definately',
    ]) {
      expect(found).toContain(slip);
    }
  });
});
