import { describe, expect, it } from 'vitest';
import type { ScheduledRun } from '@linkaudit/core';
import { runHistory } from './run-history';

const run = (patch: Partial<ScheduledRun>): ScheduledRun => ({
  scanId: 's',
  status: 1,
  dateCreated: '2026-03-01T09:00:00.000Z',
  dateCompleted: '2026-03-01T09:05:00.000Z',
  badLinks: 0,
  uniqueBadLinks: 0,
  totalLinks: 0,
  uniqueLinks: 0,
  duration: 0,
  newProblems: null,
  ...patch,
});

describe('run history', () => {
  it('keeps the runs in order with bad links, total links and minutes', () => {
    const history = runHistory([
      run({ badLinks: 3, totalLinks: 40, duration: 90_000 }),
      run({
        dateCompleted: '2026-03-08T09:01:00.000Z',
        badLinks: 1,
        totalLinks: 42,
        duration: 20_000,
      }),
    ]);
    expect(history).toEqual({
      completed: ['2026-03-01T09:05:00.000Z', '2026-03-08T09:01:00.000Z'],
      badLinks: [3, 1],
      totalLinks: [40, 42],
      minutes: [1.5, 0.33],
      newProblems: [false, false],
    });
  });

  it('marks the runs that found new problems (issue 27)', () => {
    const history = runHistory([
      run({ newProblems: null }),
      run({ newProblems: 2 }),
      run({ newProblems: 0 }),
    ]);
    expect(history.newProblems).toEqual([false, true, false]);
  });

  it('places a run without a completion date at its start', () => {
    expect(runHistory([run({ dateCompleted: null })]).completed).toEqual([
      '2026-03-01T09:00:00.000Z',
    ]);
  });
});
