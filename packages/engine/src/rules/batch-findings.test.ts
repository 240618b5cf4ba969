import { describe, expect, it } from 'vitest';
import { packFindings, unpackFindings, type Outcome } from './batch-findings.js';

describe("a batch's findings as columns", () => {
  it('come back page by page as they went: findings, none, and failures in between', () => {
    const outcomes: Outcome[] = [
      {
        findings: [
          { ruleId: 2001, line: 3, column: 14, snippet: 'stel.', message: 'Unknown word "stel"' },
          { ruleId: 4001, line: 1, column: 1, snippet: '<head> <meta charset="utf-8">' },
        ],
      },
      { error: 'a rule threw' },
      { findings: [] },
      { findings: [{ ruleId: 5004, line: 70_000, column: 2_000_000, snippet: '<a href="/">' }] },
      { error: 'another rule threw' },
    ];
    const batch = packFindings(outcomes);
    expect(Array.from(batch.counts)).toEqual([2, -1, 0, 1, -1]);
    expect(batch.snippets).toHaveLength(3);
    expect(unpackFindings(structuredClone(batch))).toEqual(outcomes);
  });

  it('leave out the message of a finding that has none', () => {
    const finding = { ruleId: 1003, line: 2, column: 1, snippet: '<html>' };
    const [outcome] = unpackFindings(packFindings([{ findings: [finding] }]));
    const [back] = outcome && 'findings' in outcome ? outcome.findings : [];
    expect(back).toStrictEqual(finding); // no `message: undefined` either
  });
});
