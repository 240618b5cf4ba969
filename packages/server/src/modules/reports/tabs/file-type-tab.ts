import type { FileTypeRow, ReportData, ReportQuery } from '@linkaudit/core';
import { reportData, type ReportReader } from '../report-reader.js';
import { fileTypes } from '../reports.repository.js';

/**
 * The file-type tab: unique URLs fetched by content type, with their bytes. One row per type, a
 * handful, so a page is cut from them all; a finished scan's are stored with it.
 */
export async function fileTypeRows(reader: ReportReader, db = reader.db): Promise<FileTypeRow[]> {
  return (await reader.stored())?.types ?? (await fileTypes(db, reader.scan.id));
}

export async function fileTypePage(
  reader: ReportReader,
  query: ReportQuery,
): Promise<ReportData<FileTypeRow>> {
  const all = await fileTypeRows(reader);
  // The filter keeps the chosen content type; the choices stay every type of the scan.
  const shown = query.category ? all.filter((type) => type.contentType === query.category) : all;
  const start = (query.page - 1) * query.pageSize;
  return reportData(
    query,
    shown.slice(start, start + query.pageSize),
    shown.length,
    all.map((type) => ({
      name: type.contentType,
      value: type.contentType,
      count: type.count,
      allRules: all.length,
    })),
  );
}

/** The tab's CSV columns (an export is a formatter over the tab's rows). */
export const fileTypeCsv = {
  header: ['Content type', 'Files', 'Bytes'],
  cells: (row: FileTypeRow): Array<string | number | null> => [
    row.contentType,
    row.count,
    row.totalSize,
  ],
};
