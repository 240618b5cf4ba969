import {
  inclusionCategories,
  type PageInclusionRow,
  type ReportData,
  type ReportQuery,
} from '@linkaudit/core';
import { reportData, type ReportReader } from '../report-reader.js';
import { inclusionCounts, inclusionPage, inclusionRows } from '../reports.repository.js';
import type { TabFigures } from '../stored-figures.js';

/**
 * The page-inclusion tab: every page's inclusion (scans that checked it) — incoming links,
 * sitemap, orphans, rank — filtered by category. A finished scan's category counts are stored
 * with it (stored-figures.ts), so a page of it reads only its rows.
 */
export async function pageInclusionTabPage(
  reader: ReportReader,
  query: ReportQuery,
): Promise<ReportData<PageInclusionRow>> {
  const stored = await reader.stored();
  const known = stored && inclusionTotal(stored, query.category);
  const [counts, { rows, total }] = await Promise.all([
    stored?.inclusion ?? inclusionCounts(reader.db, reader.scan.id),
    inclusionPage(reader.db, reader.scan.id, query, known),
  ]);
  return reportData(
    query,
    rows,
    total,
    inclusionCategories.map((category) => ({
      name: category,
      value: category,
      count: counts[category],
      allRules: inclusionCategories.length,
    })),
  );
}

/** Every page matching the query, streamed `batchSize` rows at a time (CSV). */
export function pageInclusionTabRows(
  reader: ReportReader,
  query: ReportQuery,
  batchSize: number,
): AsyncGenerator<PageInclusionRow> {
  return inclusionRows(reader.exportDb, reader.scan.id, query, batchSize);
}

/** The tab's total of a category by the stored counts (no category: all). */
function inclusionTotal(stored: TabFigures, category: string | undefined): number {
  const { orphan, inSitemap, notInSitemap } = stored.inclusion;
  if (category === 'orphan') return orphan;
  if (category === 'inSitemap') return inSitemap;
  if (category === 'notInSitemap') return notInSitemap;
  return inSitemap + notInSitemap;
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** The tab's CSV columns (an export is a formatter over the tab's rows). */
export const pageInclusionCsv = {
  header: [
    'Page',
    'Status code',
    'Incoming links',
    'In sitemap',
    'Orphan',
    'Indexable',
    'Not indexable because',
    'Page rank',
    'Linked from',
  ],
  cells: (row: PageInclusionRow): Array<string | number | null> => [
    row.uri,
    row.statusCode,
    row.incomingLinks,
    yesNo(row.inSitemap),
    yesNo(row.orphan),
    yesNo(row.indexable),
    row.notIndexableBecause.join(' '),
    row.pageRank,
    row.linkedFrom.join(' '),
  ],
};
