import type { Kysely } from 'kysely';
import type {
  ChangeCounts,
  ChangeState,
  ScanChangeRow,
  ScanChanges,
  ScanChangesQuery,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';
import type { ScanRow } from '../scans/scans.service.js';
import {
  earlierScansOfSite,
  problemsOf,
  problemsOfScans,
  type Problem,
} from './scan-changes.repository.js';

/** How far back a problem's first-seen date is looked for (scans of the site, newest first). */
const historyScans = 10;

/**
 * A scan's problems against the previous scan of the same site: new, still (with the date of
 * the earliest scan in an unbroken run of scans that had it, within historyScans), fixed. Worked
 * out when asked, from the stored results, so a scan deleted or requeued is simply not compared.
 */
export async function scanChanges(
  db: Kysely<Database>,
  scan: ScanRow,
  query: ScanChangesQuery,
): Promise<ScanChanges> {
  const earlier = await earlierScansOfSite(db, scan, historyScans);
  const [current, ...history] = await Promise.all([
    problemsOf(db, scan.id),
    ...earlier.map((run) => problemsOf(db, run.id)),
  ]);
  const ownDate = isoDate(scan.completed_at ?? scan.created_at);
  const rows: ScanChangeRow[] = [];
  for (const [key, problem] of current ?? new Map<string, Problem>()) {
    let firstSeen = ownDate;
    for (const [index, problems] of history.entries()) {
      if (!problems.has(key)) break;
      firstSeen = isoDate(earlier[index]?.completedAt ?? null) ?? firstSeen;
    }
    const state: ChangeState = history[0]?.has(key) ? 'still' : 'new';
    rows.push({ ...problem, state, firstSeen });
  }
  for (const [key, problem] of history[0] ?? new Map<string, Problem>()) {
    if (!current?.has(key)) rows.push({ ...problem, state: 'fixed', firstSeen: null });
  }
  return page(rows, earlier[0]?.id ?? null, query);
}

/**
 * For runs of one site oldest first (a schedule's history): how many problems each run had that
 * the run before it did not; null for the first (nothing to compare with).
 */
export async function newProblemCounts(
  db: Kysely<Database>,
  runIds: readonly string[],
): Promise<Array<number | null>> {
  const problems = await problemsOfScans(db, runIds);
  return runIds.map((id, index) => {
    const before = index === 0 ? undefined : problems.get(runIds[index - 1] ?? '');
    if (!before) return null;
    let added = 0;
    for (const key of problems.get(id)?.keys() ?? []) if (!before.has(key)) added += 1;
    return added;
  });
}

function page(
  rows: ScanChangeRow[],
  previousScanId: string | null,
  query: ScanChangesQuery,
): ScanChanges {
  const counts: ChangeCounts = { new: 0, still: 0, fixed: 0 };
  for (const row of rows) counts[row.state] += 1;
  const matching = rows
    .filter((row) => (query.state ? row.state === query.state : true))
    .filter((row) => (query.kind ? row.kind === query.kind : true))
    .sort(
      (a, b) =>
        stateOrder[a.state] - stateOrder[b.state] ||
        a.kind.localeCompare(b.kind) ||
        (a.target < b.target ? -1 : a.target > b.target ? 1 : 0) ||
        (a.detail ?? '').localeCompare(b.detail ?? ''),
    );
  const start = (query.page - 1) * query.pageSize;
  return {
    previousScanId,
    counts,
    total: matching.length,
    rows: matching.slice(start, start + query.pageSize),
  };
}

const stateOrder: Record<ChangeState, number> = { new: 0, still: 1, fixed: 2 };

function isoDate(value: Date | string | null): string | null {
  return value === null ? null : toDate(value).toISOString();
}
