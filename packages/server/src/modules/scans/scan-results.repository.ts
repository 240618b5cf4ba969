import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type {
  ScanCertificatesTable,
  ScanDuplicateAnchorsTable,
  ScanLinksTable,
  ScanPageReadsTable,
  ScanPagesTable,
  ScanRuleViolationsTable,
  ScanSuggestionsTable,
  ScanTargetsTable,
} from './scans.table.js';
import {
  countLinksByState,
  holdsLease,
  updateTotals,
  type ScanTotals,
} from './scans.repository.js';
import { insertRows, rowsPerInsert } from './bulk-insert.repository.js';

/** A result write of an attempt that no longer holds its scan: nothing of it was stored. */
export class LeaseLostError extends Error {
  constructor(scanId: string) {
    super(`the lease of scan ${scanId} is no longer this worker's; its results were not written`);
  }
}

/** Inside a write's transaction, first: stops it unless `owner` still holds the scan. */
async function fence(db: Kysely<Database>, scanId: string, owner: string | undefined) {
  if (owner !== undefined && !(await holdsLease(db, scanId, owner))) {
    throw new LeaseLostError(scanId);
  }
}

/** Writes of a running scan's results: one transaction per batch, multi-row INSERTs. */

/** The columns of each result row the writer makes (scan-results.ts): every one, every time. */
const targetColumns = [
  'scan_id',
  'id',
  'url',
  'state',
  'reason',
  'status_code',
  'message',
  'content_type',
  'size',
  'internal',
  'check_detail_json',
  'reference_count',
] as const;
const linkColumns = [
  'scan_id',
  'id',
  'page_id',
  'target_id',
  'target',
  'element',
  'line',
  'col',
  'anchor_fragment',
  'anchor_state',
] as const;
const anchorColumns = [
  'scan_id',
  'page_id',
  'name',
  'line',
  'col',
  'first_line',
  'first_col',
] as const;
const ruleColumns = [
  'scan_id',
  'page_id',
  'rule_id',
  'rule_name',
  'category_id',
  'line',
  'col',
  'snippet',
  'message',
  'group_key',
] as const;
const pageReadColumns = ['scan_id', 'url', 'record_json'] as const;
const suggestionColumns = [
  'scan_id',
  'url',
  'fragment',
  'kind',
  'basis',
  'suggested_url',
  'confidence',
  'hops',
] as const;

export type PageRecord = Insertable<ScanPagesTable>;

/** The result rows gathered since the last write, in the order they are inserted. */
export interface ResultBatch {
  targets: Array<Insertable<ScanTargetsTable>>;
  links: Array<Insertable<ScanLinksTable>>;
  certificates: Array<Insertable<ScanCertificatesTable>>;
  anchors: Array<Insertable<ScanDuplicateAnchorsTable>>;
  rules: Array<Insertable<ScanRuleViolationsTable>>;
  pageReads: Array<Insertable<ScanPageReadsTable>>;
  suggestions: Array<Insertable<ScanSuggestionsTable>>;
}

/**
 * One batch and the running totals, in one transaction (targets before the links naming them),
 * written only while `leaseOwner` (when given) holds the scan.
 */
export async function writeResultBatch(
  db: Kysely<Database>,
  scanId: string,
  batch: ResultBatch,
  totals: ScanTotals,
  leaseOwner?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await fence(trx, scanId, leaseOwner);
    await insertRows(trx, 'scan_targets', targetColumns, batch.targets);
    await insertRows(trx, 'scan_links', linkColumns, batch.links);
    for (const chunk of chunks(batch.certificates)) {
      await trx
        .insertInto('scan_certificates')
        .values(chunk)
        .onConflict((c) => c.doNothing())
        .execute();
    }
    await insertRows(trx, 'scan_duplicate_anchors', anchorColumns, batch.anchors);
    await insertRows(trx, 'scan_rule_violations', ruleColumns, batch.rules);
    // (A page read again after a resume may already be recorded.)
    await insertRows(trx, 'scan_page_reads', pageReadColumns, batch.pageReads, {
      ignoreConflicts: true,
    });
    // (A resumed scan works its suggestions out again.)
    await insertRows(trx, 'scan_suggestions', suggestionColumns, batch.suggestions, {
      ignoreConflicts: true,
    });
    await updateTotals(trx, scanId, totals);
  });
}

/**
 * After the crawl, in one transaction: the pages, the reference counts of the targets linked
 * again after their row was written ([id, count] each), the links counted by state and reason,
 * final totals; the page checkpoint is no longer needed.
 */
export async function writeFinalResults(
  db: Kysely<Database>,
  scanId: string,
  pages: PageRecord[],
  references: Array<[number, number]>,
  totals: ScanTotals,
  leaseOwner?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await fence(trx, scanId, leaseOwner);
    for (const chunk of chunks(pages)) await trx.insertInto('scan_pages').values(chunk).execute();
    await updateReferenceCounts(trx, scanId, references);
    await countLinksByState(trx, scanId);
    await updateTotals(trx, scanId, totals);
    await trx.deleteFrom('scan_page_reads').where('scan_id', '=', scanId).execute();
  });
}

/** Sets the targets' reference counts, a few hundred targets a statement (UPDATE … FROM VALUES). */
async function updateReferenceCounts(
  db: Kysely<Database>,
  scanId: string,
  references: Array<[number, number]>,
): Promise<void> {
  for (const chunk of chunks(references)) {
    // Both dialects name a VALUES list's columns column1, column2; the casts type its parameters.
    const values = sql.join(
      chunk.map(([id, count]) => sql`(cast(${id} as integer), cast(${count} as integer))`),
    );
    await sql`update scan_targets set reference_count = v.column2
      from (values ${values}) as v
      where scan_targets.scan_id = ${scanId} and scan_targets.id = v.column1`.execute(db);
  }
}

function chunks<Row>(rows: Row[]): Row[][] {
  const result: Row[][] = [];
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    result.push(rows.slice(start, start + rowsPerInsert));
  }
  return result;
}
