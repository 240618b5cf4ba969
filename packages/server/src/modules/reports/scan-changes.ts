import type { Kysely } from 'kysely';
import {
  triageKeyOf,
  type ChangeCounts,
  type ChangeState,
  type RowTriage,
  type ScanChangeRow,
  type ScanChanges,
  type ScanChangesQuery,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';
import type { ScanRow } from '../scans/scans.service.js';
import { siteMarks, triageScopeOf, type TriageScope } from './triage.repository.js';
import {
  earlierScansOfSite,
  problemsOf,
  problemsOfScans,
  problemsStillPlaced,
  type Problem,
} from './scan-changes.repository.js';

/** How far back a problem's first-seen date is looked for (scans of the site, newest first). */
export const historyScans = 10;

/** The earlier scans a scan's changes are worked out against (newest first). */
export type EarlierScans = Awaited<ReturnType<typeof earlierScansOfSite>>;

/** A change without its triage mark (marks change any time; they are put on when read). */
export type UnmarkedChange = Omit<ScanChangeRow, 'triage'>;

/**
 * A scan's problems against the previous scan of the same site: new, still (with the date of
 * the earliest scan in an unbroken run of scans that had it, within historyScans), fixed. Worked
 * out when asked, from the stored results, so a scan deleted or requeued is simply not compared.
 * A finished scan reads them stored instead (stored-changes.ts).
 */
export async function scanChanges(
  db: Kysely<Database>,
  scan: ScanRow,
  query: ScanChangesQuery,
): Promise<ScanChanges> {
  const earlier = await earlierScansOfSite(db, scan, historyScans);
  const [marks, rows] = await Promise.all([
    marksByKey(db, triageScopeOf(scan)),
    changeRows(db, scan, earlier),
  ]);
  const marked = rows.map((row) => ({ ...row, triage: marks.get(problemKeyOf(row)) ?? null }));
  return page(marked, earlier[0]?.id ?? null, query);
}

/** The key a problem has in every scan of the site (scan-changes.repository, core's triageKeyOf). */
export function problemKeyOf(row: { kind: string; target: string; ruleId: string | null }) {
  return row.kind === 'rule'
    ? `rule ${row.ruleId ?? ''} ${row.target}`
    : `${row.kind} ${row.target}`;
}

/**
 * The scan's changes against `earlier` in the order the changes view lists them; a new
 * problem's first-seen date is the scan's own (its completion, else its creation).
 */
export async function changeRows(
  db: Kysely<Database>,
  scan: ScanRow,
  earlier: EarlierScans,
): Promise<UnmarkedChange[]> {
  const [current, ...history] = await Promise.all([
    problemsOf(db, scan.id),
    ...earlier.map((run) => problemsOf(db, run.id)),
  ]);
  const ownDate = isoDate(scan.completed_at ?? scan.created_at);
  const rows: UnmarkedChange[] = [];
  for (const [key, problem] of current) {
    let firstSeen = ownDate;
    for (const [index, problems] of history.entries()) {
      if (!problems.has(key)) break;
      firstSeen = isoDate(earlier[index]?.completedAt ?? null) ?? firstSeen;
    }
    const state: ChangeState = history[0]?.has(key) ? 'still' : 'new';
    rows.push({ ...problem, state, firstSeen });
  }
  const gone = [...(history[0] ?? new Map<string, Problem>())].filter(([key]) => !current.has(key));
  const fixed = await problemsStillPlaced(db, scan.id, gone);
  for (const [key, problem] of gone) {
    rows.push({ ...problem, state: fixed.has(key) ? 'fixed' : 'removed', firstSeen: null });
  }
  return rows.sort(changeOrder);
}

/** The changes view's order: new, still, fixed, removed; then kind, target and detail. */
export function changeOrder(a: UnmarkedChange, b: UnmarkedChange): number {
  return (
    stateOrder[a.state] - stateOrder[b.state] ||
    a.kind.localeCompare(b.kind) ||
    (a.target < b.target ? -1 : a.target > b.target ? 1 : 0) ||
    (a.detail ?? '').localeCompare(b.detail ?? '')
  );
}

/**
 * For runs of one site oldest first (a schedule's history): how many problems each run had that
 * the run before it did not; null for the first (nothing to compare with).
 */
export async function newProblemCounts(
  db: Kysely<Database>,
  scope: TriageScope,
  runIds: readonly string[],
): Promise<Array<number | null>> {
  const [problems, marks] = await Promise.all([problemsOfScans(db, runIds), marksByKey(db, scope)]);
  return runIds.map((id, index) => {
    const before = index === 0 ? undefined : problems.get(runIds[index - 1] ?? '');
    if (!before) return null;
    let added = 0;
    for (const key of problems.get(id)?.keys() ?? []) {
      if (!before.has(key) && marks.get(key)?.mark !== 'ignored') added += 1;
    }
    return added;
  });
}

/** The site's marks by the key scan-changes.repository gives each problem (core's triageKeyOf). */
async function marksByKey(db: Kysely<Database>, scope: TriageScope) {
  const marks = new Map<string, RowTriage>();
  for (const { kind, target, ruleId, ...mark } of await siteMarks(db, scope)) {
    marks.set(triageKeyOf({ kind, target, ruleId }), mark);
  }
  return marks;
}

/** Whether a row passes the query's triage filter (`open` leaves out ignored problems). */
function triageMatches(row: ScanChangeRow, filter: ScanChangesQuery['triage']): boolean {
  const mark = row.triage?.mark;
  if (filter === 'open') return mark !== 'ignored';
  if (filter === 'all') return true;
  return mark === filter;
}

function page(
  rows: ScanChangeRow[],
  previousScanId: string | null,
  query: ScanChangesQuery,
): ScanChanges {
  const counts: ChangeCounts = { new: 0, still: 0, fixed: 0, removed: 0 };
  let ignored = 0;
  for (const row of rows) {
    if (row.triage?.mark === 'ignored') ignored += 1;
    else counts[row.state] += 1;
  }
  const matching = rows
    .filter((row) => triageMatches(row, query.triage))
    .filter((row) => (query.state ? row.state === query.state : true))
    .filter((row) => (query.kind ? row.kind === query.kind : true));
  const start = (query.page - 1) * query.pageSize;
  return {
    previousScanId,
    counts,
    ignored,
    total: matching.length,
    rows: matching.slice(start, start + query.pageSize),
  };
}

const stateOrder: Record<ChangeState, number> = { new: 0, still: 1, fixed: 2, removed: 3 };

export function isoDate(value: Date | string | null): string | null {
  return value === null ? null : toDate(value).toISOString();
}
