import type { PageRow, ReportData, ReportQuery } from '@linkaudit/core';
import { reportData, type ReportReader } from '../report-reader.js';
import { pageContentTypes, pagePage, pageRows } from '../reports.repository.js';

/**
 * The page tab: every page of the scan with its sizes, largest first by default, filtered by
 * content type. A finished scan's totals and type counts are stored with it (stored-figures.ts),
 * so a page of it reads only its rows.
 */
export async function pageTabPage(
  reader: ReportReader,
  query: ReportQuery,
): Promise<ReportData<PageRow>> {
  const stored = await reader.stored();
  const known =
    stored &&
    (query.category
      ? (stored.pageTypes.find((type) => type.contentType === query.category)?.count ?? 0)
      : stored.pages);
  const [types, { rows, total }] = await Promise.all([
    stored?.pageTypes ?? pageContentTypes(reader.db, reader.scan.id),
    pagePage(reader.db, reader.scan.id, query, 0, known),
  ]);
  // The filter offers the content types the pages have (pageBaseQuery filters by them).
  return reportData(
    query,
    rows,
    total,
    types.map((type) => ({
      name: type.contentType,
      value: type.contentType,
      count: type.count,
      allRules: types.length,
    })),
  );
}

/** Every page matching the query (over `minBytes`), streamed `batchSize` rows at a time. */
export function pageTabRows(
  reader: ReportReader,
  query: ReportQuery,
  batchSize: number,
  minBytes = 0,
): AsyncGenerator<PageRow> {
  return pageRows(reader.exportDb, reader.scan.id, query, batchSize, minBytes);
}

/** The tab's CSV columns (an export is a formatter over the tab's rows). */
export const pageCsv = {
  header: ['Page', 'Status code', 'Total bytes', 'HTML bytes', 'Title', 'Page rank'],
  cells: (row: PageRow): Array<string | number | null> => [
    row.uri,
    row.statusCode,
    row.contentSize,
    row.htmlSize,
    row.title,
    row.pageRank,
  ],
};
