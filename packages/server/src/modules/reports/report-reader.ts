import type { Kysely } from 'kysely';
import type { ReportData, ReportQuery } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { ScanRow } from '../scans/scans.service.js';
import type { TabFigures } from './stored-figures.js';

/**
 * One request's reading of one scan's report (the report read model, issue 34): made by the
 * report service once the reader may read the scan, it hands every tab module what a read
 * needs, so a tab neither checks ownership nor reaches back into the service.
 */
export interface ReportReader {
  scan: ScanRow;
  /** Where pages of rows are read (the report lane). */
  db: Kysely<Database>;
  /** Where whole-tab exports are read (connections of their own). */
  exportDb: Kysely<Database>;
  /** The finished scan's stored figures; undefined while it runs. */
  stored(): Promise<TabFigures | undefined>;
}

/** A tab's answer: one page of rows (or groups), the total and the filter categories. */
export function reportData<Row>(
  query: ReportQuery,
  lists: Row[],
  total: number,
  filterCategories: ReportData<Row>['filterCategories'],
  groups: ReportData<Row>['groups'] = null,
): ReportData<Row> {
  return { lists, groups, total, page: query.page, pageSize: query.pageSize, filterCategories };
}
