import type { Kysely } from 'kysely';
import type { InclusionCategory, ReportQuery } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { ScanRow } from '../scans/scans.service.js';
import { defaultQuery, reportFigures, type ReportFigures } from './report-model.js';
import {
  brokenAnchorLinks,
  fileTypes,
  ruleCategoryCounts,
  computeUrlCheckpoints,
  filtersLinks,
  inclusionCounts,
  linkFilterOf,
  pageContentTypes,
  ruleCounts,
  type LinkFilter,
  type UrlCheckpoint,
} from './reports.repository.js';
import { storeChanges } from './stored-changes.js';
import { readStored, rowsOf, writeStored } from './stored-figures.repository.js';

/**
 * What a finished scan's report reads take instead of counting its rows (issue 34): the
 * summary's figures, each tab's totals and filter counts. Stored when the scan finishes (its
 * Finalizing step), or on the first read of a scan that finished before this existed. They are
 * of every row: a read with the owner's ignore marks takes the ignored rows off (few: marks) or,
 * for the views that pick rows by mark, counts them itself.
 */
export interface TabFigures {
  version: typeof FIGURES_VERSION;
  /** Links to a missing #fragment (the link tab's Broken Anchor reason). */
  anchorLinks: number;
  /** The scan's pages, and by content type (the page tab's filter). */
  pages: number;
  pageTypes: Array<{ contentType: string; count: number }>;
  /** Pages with inclusion facts, by category (the page-inclusion tab). */
  inclusion: Record<InclusionCategory, number>;
  /** Findings, pages and groups per rule (the rule tab's totals and grouped view). */
  rules: Awaited<ReturnType<typeof ruleCounts>>;
  /** Repeated anchors (the duplicate-anchor tab's total). */
  duplicateAnchors: number;
  /** Findings by rule category (the rule tab's filter) and unique URLs by content type. */
  categories: ReportFigures['categories'];
  types: ReportFigures['types'];
}

/** The summary's figures as stored (report-model.ts computes them). */
interface StoredSummary {
  version: typeof FIGURES_VERSION;
  figures: ReportFigures;
}

/** Changes when the figures' shape does: older stored figures are computed again once. */
const FIGURES_VERSION = 2;
const TAB_FIGURES = 'tabs';
const SUMMARY = 'summary';

/** The tabs' figures; the summary's `types` and `categories` when already read. */
export async function computeTabFigures(
  db: Kysely<Database>,
  scanId: string,
  summary?: ReportFigures,
): Promise<TabFigures> {
  const [types, categories, anchorLinks, pages, pageTypes, inclusion, rules, duplicates] =
    await Promise.all([
      summary?.types ?? fileTypes(db, scanId),
      summary?.categories ?? ruleCategoryCounts(db, scanId),
      brokenAnchorLinks(db, scanId),
      rowsOf(db, 'scan_pages', scanId),
      pageContentTypes(db, scanId),
      inclusionCounts(db, scanId),
      ruleCounts(db, scanId),
      rowsOf(db, 'scan_duplicate_anchors', scanId),
    ]);
  return {
    version: FIGURES_VERSION,
    types,
    categories,
    anchorLinks,
    pages,
    pageTypes,
    inclusion,
    rules,
    duplicateAnchors: duplicates,
  };
}

/** The stored figures of a finished scan, computed and stored first when it has none. */
export async function tabFigures(
  readDb: Kysely<Database>,
  writeDb: Kysely<Database>,
  scanId: string,
): Promise<TabFigures> {
  const stored = await readStored<TabFigures>(readDb, scanId, TAB_FIGURES);
  if (stored?.version === FIGURES_VERSION) return stored;
  const figures = await computeTabFigures(readDb, scanId);
  await writeStored(writeDb, scanId, TAB_FIGURES, figures);
  return figures;
}

/** The stored summary figures of a finished scan, computed and stored first when it has none. */
export async function summaryFigures(
  readDb: Kysely<Database>,
  writeDb: Kysely<Database>,
  scanId: string,
): Promise<ReportFigures> {
  const stored = await readStored<StoredSummary>(readDb, scanId, SUMMARY);
  if (stored?.version === FIGURES_VERSION) return stored.figures;
  const figures = await reportFigures(readDb, scanId);
  await writeStored(writeDb, scanId, SUMMARY, { version: FIGURES_VERSION, figures });
  return figures;
}

/** The name a link filter's URL checkpoints are stored under (the filters they depend on). */
export function checkpointsName(filter: LinkFilter): string {
  return `checkpoints ${filter.status} ${filter.sortOrder} ${filter.reason ?? ''}`;
}

/** A finished scan's URL checkpoints of `filter` (no triage rows): stored, else computed and stored. */
export async function storedCheckpoints(
  readDb: Kysely<Database>,
  writeDb: Kysely<Database>,
  scanId: string,
  filter: LinkFilter,
): Promise<UrlCheckpoint[]> {
  const name = checkpointsName(filter);
  const stored = await readStored<UrlCheckpoint[]>(readDb, scanId, name);
  if (stored) return stored;
  const checkpoints = await computeUrlCheckpoints(readDb, scanId, filter);
  await writeStored(writeDb, scanId, name, checkpoints);
  return checkpoints;
}

/** The link tab's views whose deep pages start from checkpoints, stored with the scan. */
const checkpointViews: Array<Partial<ReportQuery>> = ['all', 'broken', 'ok'].flatMap((status) =>
  (['asc', 'desc'] as const).map((sortOrder) => ({
    status: status as ReportQuery['status'],
    sortOrder,
  })),
);

/**
 * The scan's Finalizing step (issue 34): everything its report reads need that grows with the
 * scan, worked out once from its final results: figures, URL checkpoints of the link tab's main
 * views (others are stored on their first deep page), changes against the site's earlier scans.
 */
export async function storeFinishedFigures(
  readDb: Kysely<Database>,
  writeDb: Kysely<Database>,
  scan: ScanRow,
): Promise<void> {
  const summary = await reportFigures(readDb, scan.id);
  await writeStored(writeDb, scan.id, SUMMARY, { version: FIGURES_VERSION, figures: summary });
  const figures = await computeTabFigures(readDb, scan.id, summary);
  await writeStored(writeDb, scan.id, TAB_FIGURES, figures);
  for (const view of checkpointViews) {
    const filter = await linkFilterOf(readDb, scan.id, defaultQuery(view), figures.anchorLinks);
    if (filtersLinks(filter)) continue;
    const checkpoints = await computeUrlCheckpoints(readDb, scan.id, filter);
    await writeStored(writeDb, scan.id, checkpointsName(filter), checkpoints);
  }
  await storeChanges(readDb, writeDb, scan);
}
