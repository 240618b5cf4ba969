import type { Kysely } from 'kysely';
import {
  csvDocument,
  limits,
  reportMessages,
  ruleCategoryLabel,
  type FileTypeRow,
  type LinkRow,
  type PageRow,
  type ReportData,
  type ReportQuery,
  type ReportSummary,
  type RuleRow,
  type SampleSiteScanId,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { SampleReportService } from '../sample-report/sample-report.service.js';
import type { ScanService } from '../scans/scans.service.js';
import type { ScanRow } from '../scans/scans.repository.js';
import {
  fileTypes,
  linkGroups,
  linkPage,
  pagePage,
  pageSizeBuckets,
  reasonCounts,
  ruleCategoryCounts,
  rulePage,
} from './reports.repository.js';

export interface ReportServiceDeps {
  db: Kysely<Database>;
  scans: ScanService;
  samples: SampleReportService;
}

const bucketLabels = ['< 1 MB', '1-2 MB', '2-3 MB', '3-4 MB', '4-5 MB', '> 5 MB'];

/** What a CSV export of a tab answers: its file name and text. */
export interface CsvExport {
  fileName: string;
  csv: string;
}

/** Reports of SPEC §2/§3/§7: summary and the four tabs, paged, sorted, filtered, grouped, as CSV. */
export class ReportService {
  constructor(private readonly deps: ReportServiceDeps) {}

  /** The owner's scan, an admin's view, or the sample scan (readable by anyone). */
  async #scan(user: SignedInUser | null, id: string): Promise<ScanRow> {
    const sample = await this.deps.samples.scanId();
    if (sample === id) return this.deps.scans.owned({ ...anyone, id: 'sample' }, id);
    return this.deps.scans.owned(user, id);
  }

  /** GET api/report/SampleSiteScanId: 404 until a first start has queued the sample scan. */
  async sampleSiteScanId(): Promise<SampleSiteScanId> {
    const scanId = await this.deps.samples.scanId();
    if (!scanId) throw new HttpError(404, reportMessages.noSampleReport);
    return { scanId };
  }

  async summary(user: SignedInUser | null, id: string): Promise<ReportSummary> {
    const scan = await this.#scan(user, id);
    const { db } = this.deps;
    const [reasons, buckets, types, categories, fattest, rules] = await Promise.all([
      reasonCounts(db, id),
      pageSizeBuckets(db, id),
      fileTypes(db, id),
      ruleCategoryCounts(db, id),
      pagePage(db, id, defaultQuery({ pageSize: 1 }), true, limits.fattestPageBytes),
      rulePage(db, id, defaultQuery({ pageSize: limits.ruleSamples }), true),
    ]);
    const brokenSamples = await Promise.all(
      reasons.map(async (reason) => ({
        failureReason: reason.failureReason,
        links: (
          await linkPage(
            db,
            id,
            defaultQuery({
              reason: reason.failureReason,
              pageSize: limits.brokenLinkSamplesPerReason,
            }),
            true,
          )
        ).rows,
      })),
    );
    const summary = scan.summary_json
      ? (JSON.parse(scan.summary_json) as Record<string, number>)
      : {};
    const pages = Number(scan.num_pages);
    return {
      scanId: scan.id,
      url: scan.url,
      status: scan.status,
      numPages: pages,
      totalLinks: Number(scan.total_links),
      uniqueLinks: Number(scan.unique_links),
      badLinks: Number(scan.bad_links),
      uniqueBadLinks: Number(scan.unique_bad_links),
      brokenAnchors: Number(summary.brokenAnchors ?? 0),
      duplicateAnchors: Number(summary.duplicateAnchors ?? 0),
      fattestPages: fattest.total,
      certificateProblems: Number(summary.certificateProblems ?? 0),
      duration: Number(scan.duration_ms),
      scanSettingsJson: scan.settings_json,
      reasons,
      pageSizeBuckets: buckets.map((count, index) => ({
        label: bucketLabels[index] ?? '',
        pages: count,
      })),
      contentTypeSizes: types,
      // Failed = pages with a violation of the category; passed = the other pages.
      ruleCategories: categories.map((category) => ({
        categoryID: category.categoryID,
        name: ruleCategoryLabel(category.categoryID),
        failed: category.count,
        passed: Math.max(0, pages * category.rules - category.count),
      })),
      brokenSamples,
      ruleSamples: rules.rows,
    };
  }

  async links(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<LinkRow>> {
    await this.#scan(user, id);
    const reasons = await reasonCounts(this.deps.db, id);
    const filterCategories = reasons.map((reason) => ({
      name: reason.failureReason,
      value: reason.failureReason,
      count: reason.numberOfReferences,
      allRules: reasons.length,
    }));
    if (query.groupBy !== 'none') {
      const { groups, total } = await linkGroups(this.deps.db, id, query);
      return reportData(query, [], total, filterCategories, groups);
    }
    const { rows, total } = await linkPage(this.deps.db, id, query, true);
    return reportData(query, rows, total, filterCategories);
  }

  async pages(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<PageRow>> {
    await this.#scan(user, id);
    const { rows, total } = await pagePage(this.deps.db, id, query, true);
    return reportData(query, rows, total, []);
  }

  async rules(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<RuleRow>> {
    await this.#scan(user, id);
    const categories = await ruleCategoryCounts(this.deps.db, id);
    const { rows, total } = await rulePage(this.deps.db, id, query, true);
    return reportData(
      query,
      rows,
      total,
      categories.map((category) => ({
        name: ruleCategoryLabel(category.categoryID),
        value: String(category.categoryID),
        count: category.count,
        allRules: category.rules,
      })),
    );
  }

  async fileTypes(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<FileTypeRow>> {
    await this.#scan(user, id);
    const all = await fileTypes(this.deps.db, id);
    const start = (query.page - 1) * query.pageSize;
    return reportData(
      query,
      all.slice(start, start + query.pageSize),
      all.length,
      all.map((type) => ({
        name: type.contentType,
        value: type.contentType,
        count: type.count,
        allRules: all.length,
      })),
    );
  }

  /** Every row of one tab matching the filters, as CSV (UTF-8 with BOM, formula-safe). */
  async csv(
    user: SignedInUser | null,
    id: string,
    tab: 'link' | 'page' | 'ruleResult' | 'fileType',
    query: ReportQuery,
  ): Promise<CsvExport> {
    await this.#scan(user, id);
    const { db } = this.deps;
    const fileName = `scan-${id}-${tab}.csv`;
    if (tab === 'link') {
      const { rows } = await linkPage(db, id, query, false);
      return {
        fileName,
        csv: csvDocument(
          [
            'Target',
            'Source',
            'Status code',
            'Failure reason',
            'Status detail',
            'References',
            'Line',
            'Column',
          ],
          rows.map((row) => [
            row.targetUri,
            row.sourceUri,
            row.statusCode,
            row.failureReason,
            row.statusDetail,
            row.referenceCount,
            row.line,
            row.column,
          ]),
        ),
      };
    }
    if (tab === 'page') {
      const { rows } = await pagePage(db, id, query, false);
      return {
        fileName,
        csv: csvDocument(
          ['Page', 'Status code', 'Total bytes', 'HTML bytes', 'Title'],
          rows.map((row) => [row.uri, row.statusCode, row.contentSize, row.htmlSize, row.title]),
        ),
      };
    }
    if (tab === 'ruleResult') {
      const { rows } = await rulePage(db, id, query, false);
      return {
        fileName,
        csv: csvDocument(
          ['Page', 'Rule', 'Category', 'Line', 'Column', 'Snippet'],
          rows.map((row) => [
            row.uri,
            row.ruleName,
            ruleCategoryLabel(row.ruleCategoryID),
            row.line,
            row.column,
            row.snippet,
          ]),
        ),
      };
    }
    const types = await fileTypes(db, id);
    return {
      fileName,
      csv: csvDocument(
        ['Content type', 'Files', 'Bytes'],
        types.map((row) => [row.contentType, row.count, row.totalSize]),
      ),
    };
  }
}

/** Reads the sample scan as if its owner: an admin-like reader limited to that one id. */
const anyone: SignedInUser = {
  id: '',
  email: '',
  firstName: '',
  lastName: '',
  language: 'en',
  roles: ['user', 'admin'],
  emailConfirmed: true,
  planId: 'Free',
  loginProvider: 'Local',
  tokenId: '',
  tokenExpiresAt: new Date(0),
};

function defaultQuery(overrides: Partial<ReportQuery>): ReportQuery {
  return {
    page: 1,
    pageSize: 50,
    sortOrder: 'asc',
    status: 'broken',
    groupBy: 'none',
    format: 'json',
    ...overrides,
  };
}

/** A tab's answer: one page of rows (or groups), the total and the filter categories. */
function reportData<Row>(
  query: ReportQuery,
  lists: Row[],
  total: number,
  filterCategories: ReportData<Row>['filterCategories'],
  groups: ReportData<Row>['groups'] = null,
): ReportData<Row> {
  return { lists, groups, total, page: query.page, pageSize: query.pageSize, filterCategories };
}
