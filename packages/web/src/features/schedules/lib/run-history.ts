import type { ScheduledRun } from '@linkaudit/core';

/** The three lines of a schedule's history chart (SPEC §2), one point per completed run. */
export interface RunHistory {
  /** Completion instants (ISO), oldest first; the start date for a run without one. */
  completed: string[];
  badLinks: number[];
  totalLinks: number[];
  /** Duration in minutes, two decimals. */
  minutes: number[];
  /** Whether the run found problems the run before it had not (issue 27). */
  newProblems: boolean[];
}

const msPerMinute = 60_000;

export function runHistory(runs: ScheduledRun[]): RunHistory {
  return {
    completed: runs.map((run) => run.dateCompleted ?? run.dateCreated),
    badLinks: runs.map((run) => run.badLinks),
    totalLinks: runs.map((run) => run.totalLinks),
    minutes: runs.map((run) => Math.round((run.duration / msPerMinute) * 100) / 100),
    newProblems: runs.map((run) => (run.newProblems ?? 0) > 0),
  };
}
