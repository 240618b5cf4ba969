import { sql, type Kysely } from 'kysely';
import type { ScanChangesQuery } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { ScanRow } from '../scans/scans.service.js';
import { triageScopeOf } from './triage.repository.js';
import { writeStored } from './stored-figures.repository.js';

const ROWS_PER_INSERT = 500;

/** A stored change as written (scan_changes less the scan and position, given here). */
export type StoredChange = Omit<Database['scan_changes'], 'scan_id' | 'position'>;

/** Replaces the scan's stored changes with `rows` (in order) and their basis, in one transaction. */
export async function replaceChanges(
  db: Kysely<Database>,
  scanId: string,
  rows: StoredChange[],
  basis: unknown,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('scan_changes').where('scan_id', '=', scanId).execute();
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const values = rows
        .slice(start, start + ROWS_PER_INSERT)
        .map((row, index) => ({ ...row, scan_id: scanId, position: start + index }));
      await trx.insertInto('scan_changes').values(values).execute();
    }
    await writeStored(trx, scanId, 'changes', basis);
  });
}

/** The scan's changes with a mark of the owner, by `${state} ${kind} ${mark}`: a few rows. */
export async function markedChangeCounts(db: Kysely<Database>, scan: ScanRow) {
  const scope = triageScopeOf(scan);
  const rows = await db
    .selectFrom('triage_marks as m')
    .innerJoin('scan_changes as c', (join) =>
      join.on('c.scan_id', '=', scan.id).onRef('c.target_hash', '=', 'm.target_hash'),
    )
    .select(['c.state', 'c.kind', 'm.mark', (eb) => eb.fn.countAll<number | string>().as('rows')])
    .where('m.user_id', '=', scope.userId)
    .where('m.site', '=', scope.site)
    .groupBy(['c.state', 'c.kind', 'm.mark'])
    .execute();
  return new Map(rows.map((row) => [`${row.state} ${row.kind} ${row.mark}`, Number(row.rows)]));
}

/** One page of the stored changes matching the query, in position order, with their marks. */
export function changesPage(db: Kysely<Database>, scan: ScanRow, query: ScanChangesQuery) {
  const scope = triageScopeOf(scan);
  let rows = db
    .selectFrom('scan_changes as c')
    .leftJoin('triage_marks as m', (join) =>
      join
        .on('m.user_id', '=', scope.userId)
        .on('m.site', '=', scope.site)
        .onRef('m.target_hash', '=', 'c.target_hash'),
    )
    .select([
      'c.state',
      'c.kind',
      'c.target',
      'c.detail',
      'c.rule_id',
      'c.first_seen',
      'm.mark',
      'm.note',
      'm.marked_at',
    ])
    .where('c.scan_id', '=', scan.id);
  if (query.state) rows = rows.where('c.state', '=', query.state);
  if (query.kind) rows = rows.where('c.kind', '=', query.kind);
  if (query.triage === 'open') {
    rows = rows.where(sql<boolean>`(m.mark is null or m.mark <> 'ignored')`);
  } else if (query.triage !== 'all') {
    rows = rows.where('m.mark', '=', query.triage);
  }
  return rows
    .orderBy('c.position')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
}
