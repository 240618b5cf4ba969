import type { DuplicateAnchorRow, ReportData, ReportQuery } from '@linkaudit/core';
import { reportData, type ReportReader } from '../report-reader.js';
import { duplicateAnchorPage, duplicateAnchorRows } from '../reports.repository.js';

/**
 * The duplicate-anchor tab: each repeat of an id (or a[name]) on a page, with where it was first
 * defined. No filter categories; a finished scan's total is stored with it (stored-figures.ts),
 * so a page of it reads only its rows.
 */
export async function duplicateAnchorTabPage(
  reader: ReportReader,
  query: ReportQuery,
): Promise<ReportData<DuplicateAnchorRow>> {
  const stored = await reader.stored();
  const { rows, total } = await duplicateAnchorPage(
    reader.db,
    reader.scan.id,
    query,
    stored?.duplicateAnchors,
  );
  return reportData(query, rows, total, []);
}

/** Every repeat matching the query, streamed `batchSize` rows at a time (CSV and PDF). */
export function duplicateAnchorTabRows(
  reader: ReportReader,
  query: ReportQuery,
  batchSize: number,
): AsyncGenerator<DuplicateAnchorRow> {
  return duplicateAnchorRows(reader.exportDb, reader.scan.id, query, batchSize);
}

/** The tab's CSV columns (an export is a formatter over the tab's rows). */
export const duplicateAnchorCsv = {
  header: ['Page', 'Anchor', 'Line', 'Column', 'First line', 'First column'],
  cells: (row: DuplicateAnchorRow): Array<string | number | null> => [
    row.uri,
    row.anchor,
    row.line,
    row.column,
    row.firstLine,
    row.firstColumn,
  ],
};
