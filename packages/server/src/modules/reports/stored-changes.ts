import type { Kysely } from 'kysely';
import {
  changeStates,
  problemKinds,
  type ChangeCounts,
  type ChangeState,
  type ProblemKind,
  type ScanChanges,
  type ScanChangesQuery,
  type TriageMarkName,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';
import type { ScanRow } from '../scans/scans.service.js';
import { changeRows, historyScans, isoDate, type EarlierScans } from './scan-changes.js';
import { earlierScansOfSite, goneScans } from './scan-changes.repository.js';
import { readStored } from './stored-figures.repository.js';
import { targetHash } from './triage.repository.js';
import { changesPage, markedChangeCounts, replaceChanges } from './stored-changes.repository.js';

/**
 * A finished scan's changes, stored when it finishes (issue 34): the rows in the view's order
 * (scan_changes) and, here, what they were worked out against and how many there are of each
 * state and kind. A read is then a page of rows by position, whatever the number of problems,
 * instead of every problem of the scan and of up to 10 earlier scans compared in memory.
 */
interface ChangesBasis {
  /** 2: fixed and removed told apart (issue 37). */
  version: 2;
  /** The earlier scans of the site compared with (ids and completion), newest first. */
  earlier: Array<{ id: string; completedAt: string | null }>;
  /** Rows by `${state} ${kind}`. */
  counts: Record<string, number>;
}

/** The stored basis's name (stored-changes.repository writes it with the rows). */
const BASIS = 'changes';

function basisOf(earlier: EarlierScans): ChangesBasis['earlier'] {
  return earlier.map((run) => ({ id: run.id, completedAt: isoDate(run.completedAt) }));
}

/**
 * Works out `scan`'s changes and stores them (replacing any before): at the end of the scan, or
 * on the first read of a scan that finished before they were stored, or whose earlier scans
 * changed since (one deleted, trashed or requeued, or a scan started before it finished after).
 */
export async function storeChanges(
  readDb: Kysely<Database>,
  writeDb: Kysely<Database>,
  scan: ScanRow,
  earlier?: EarlierScans,
): Promise<ChangesBasis> {
  const runs = earlier ?? (await earlierScansOfSite(readDb, scan, historyScans));
  const rows = await changeRows(readDb, scan, runs);
  const counts: Record<string, number> = {};
  for (const row of rows)
    counts[`${row.state} ${row.kind}`] = (counts[`${row.state} ${row.kind}`] ?? 0) + 1;
  const basis: ChangesBasis = { version: 2, earlier: basisOf(runs), counts };
  const ownDate = isoDate(scan.completed_at ?? scan.created_at);
  await replaceChanges(
    writeDb,
    scan.id,
    rows.map((row) => ({
      state: row.state,
      kind: row.kind,
      target: row.target,
      detail: row.detail,
      rule_id: row.ruleId,
      // A new problem's date is the scan's own, which is written after this (its completion).
      first_seen: row.firstSeen === ownDate ? null : row.firstSeen,
      target_hash: targetHash({ kind: row.kind, target: row.target, ruleId: row.ruleId }),
    })),
    basis,
  );
  return basis;
}

/**
 * Whether the stored changes still stand: they are the scan's history, so they are worked out
 * again only when a scan they were compared with was trashed or deleted, or when an earlier scan
 * they did not know has finished since (it started before this one and finished after). A scan
 * they know that an operator requeued (running again, or finished again with other results)
 * changes nothing (issue 37: a requeue turned "3 fixed" into "0 fixed").
 */
async function basisStands(
  db: Kysely<Database>,
  stored: ChangesBasis,
  earlier: EarlierScans,
): Promise<boolean> {
  if (stored.version !== 2) return false;
  const known = new Set(stored.earlier.map((run) => run.id));
  if (!earlier.every((run) => known.has(run.id))) return false;
  return (await goneScans(db, [...known])).size === 0;
}

/**
 * GET /api/report/changes/{id} of a finished scan: its stored changes (stored now when missing
 * or out of date), a page of them with the owner's marks joined by key.
 */
export async function storedScanChanges(
  readDb: Kysely<Database>,
  writeDb: Kysely<Database>,
  scan: ScanRow,
  query: ScanChangesQuery,
): Promise<ScanChanges> {
  const earlier = await earlierScansOfSite(readDb, scan, historyScans);
  const stored = await readStored<ChangesBasis>(readDb, scan.id, BASIS);
  const basis =
    stored && (await basisStands(readDb, stored, earlier))
      ? stored
      : await storeChanges(readDb, writeDb, scan, earlier);
  const marked = await markedChangeCounts(readDb, scan);
  const matches = (key: string) => {
    const [state, kind] = key.split(' ');
    return (!query.state || state === query.state) && (!query.kind || kind === query.kind);
  };
  const counts: ChangeCounts = { new: 0, still: 0, fixed: 0, removed: 0 };
  let ignored = 0;
  let total = 0;
  for (const state of changeStates) {
    for (const kind of problemKinds) {
      const key = `${state} ${kind}`;
      const rows = basis.counts[key] ?? 0;
      const ignoredRows = marked.get(`${key} ignored`) ?? 0;
      ignored += ignoredRows;
      counts[state] += rows - ignoredRows;
      if (!matches(key)) continue;
      if (query.triage === 'all') total += rows;
      else if (query.triage === 'open') total += rows - ignoredRows;
      else total += marked.get(`${key} ${query.triage}`) ?? 0;
    }
  }
  const rows = await changesPage(readDb, scan, query);
  const ownDate = isoDate(scan.completed_at ?? scan.created_at);
  return {
    previousScanId: basis.earlier[0]?.id ?? null,
    counts,
    ignored,
    total,
    rows: rows.map((row) => ({
      kind: row.kind as ProblemKind,
      target: row.target,
      detail: row.detail,
      state: row.state as ChangeState,
      firstSeen:
        row.state === 'fixed' || row.state === 'removed' ? null : (row.first_seen ?? ownDate),
      triage:
        row.mark === null
          ? null
          : {
              mark: row.mark as TriageMarkName,
              note: row.note ?? '',
              markedAt: toDate(row.marked_at ?? new Date(0)).toISOString(),
            },
      ruleId: row.rule_id,
    })),
  };
}
