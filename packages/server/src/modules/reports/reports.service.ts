import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  csvCell,
  isFinishedStatus,
  limits,
  reportMessages,
  ruleCategoryLabel,
  type BrokenLinksSummary,
  type FileTypeRow,
  type LinkRow,
  type PageRow,
  type ReportData,
  type ReportQuery,
  type ReportSummary,
  type RuleRow,
  type SampleSiteScanId,
  type ReportTab,
  type ScanSummary,
  scanRequestSchema,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { SampleReportService } from '../sample-report/sample-report.service.js';
import type { ScanRow, ScanService } from '../scans/scans.service.js';
import { SharedReads } from './shared-reads.js';
import {
  brokenLinkRows,
  computeUrlCheckpoints,
  fileTypes,
  linkGroups,
  linkPage,
  linkRows,
  pagePage,
  pageRows,
  pageSizeBuckets,
  reasonCounts,
  ruleCategoryCounts,
  rulePage,
  ruleRows,
  type UrlCheckpoint,
} from './reports.repository.js';

export interface ReportServiceDeps {
  db: Kysely<Database>;
  /** CSV exports read here (connections of their own, database.ts); `db` when absent. */
  exportDb?: Kysely<Database>;
  scans: ScanService;
  samples: SampleReportService;
}

/**
 * The figures the report takes from a scan's stored summary (`summary_json`: the engine's
 * ScanSummary, written when the scan finishes). A scan without one yet reads as zeros.
 */
const storedSummarySchema = z.object({
  brokenAnchors: z.number().default(0),
  duplicateAnchors: z.number().default(0),
  certificateProblems: z.number().default(0),
}) satisfies z.ZodType<
  Pick<ScanSummary, 'brokenAnchors' | 'duplicateAnchors' | 'certificateProblems'>
>;

function storedSummary(scan: ScanRow): z.infer<typeof storedSummarySchema> {
  return storedSummarySchema.parse(scan.summary_json ? JSON.parse(scan.summary_json) : {});
}

/**
 * Summaries of finished scans kept in memory (a few kB each: samples of 10 links per reason), and
 * as many sets of link-tab checkpoints (~20 kB for 110,000 URLs).
 */
const KEPT_SUMMARIES = 200;

/** Waits for a heavy-read place and gives back its release (reports.routes.ts: per-user limit). */
export type HeavyReadPlace = () => Promise<() => void>;
const noPlaceNeeded: HeavyReadPlace = () => Promise.resolve(() => {});

interface SummaryFigures {
  reasons: Awaited<ReturnType<typeof reasonCounts>>;
  buckets: Awaited<ReturnType<typeof pageSizeBuckets>>;
  types: Awaited<ReturnType<typeof fileTypes>>;
  categories: Awaited<ReturnType<typeof ruleCategoryCounts>>;
  fattest: Awaited<ReturnType<typeof pagePage>>;
  rules: Awaited<ReturnType<typeof rulePage>>;
  brokenSamples: ReportSummary['brokenSamples'];
}

/**
 * Which run of the scan the figures belong to: a requeued scan runs again (new attempt, new
 * completion), and a running scan's figures change with every status, so they are shared by
 * concurrent readers but never kept (only finished ones are).
 */
function summaryFiguresKey(scan: ScanRow): string {
  const completed = scan.completed_at === null ? '' : String(scan.completed_at);
  return `${scan.id}|${scan.status}|${scan.attempts}|${completed}`;
}

const bucketLabels = ['< 1 MB', '1-2 MB', '2-3 MB', '3-4 MB', '4-5 MB', '> 5 MB'];

/** What a CSV export of a tab answers: its file name and its text, produced as it is read. */
export interface CsvExport {
  fileName: string;
  /** Chunks of whole CSV lines; stopping the iteration stops the database reading. */
  chunks: AsyncIterable<string>;
}

/**
 * Rows read from the database per step of an export's statement (~0.5 MB of link rows): each step
 * waits its turn on a busy read thread, so 500 rows a step downloaded at ~1 MB/s under load.
 */
const CSV_BATCH_ROWS = 2000;
/** Text gathered into one chunk before it is handed to the response (~64 KB). */
const CSV_CHUNK_CHARS = 64 * 1024;

/** One CSV line (CRLF-terminated): formula-safe cells as core's csvCell writes them. */
function csvLine(cells: ReadonlyArray<string | number | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * The CSV document core's csvDocument writes (BOM, header, CRLF lines), built line by line from
 * `rows` and handed on in chunks of about CSV_CHUNK_CHARS, so an export's memory stays bounded
 * whatever the scan's size.
 */
async function* csvChunks<Row>(
  header: string[],
  rows: AsyncIterable<Row> | Iterable<Row>,
  cells: (row: Row) => Array<string | number | null>,
): AsyncGenerator<string> {
  let chunk = `\uFEFF${csvLine(header)}`;
  for await (const row of rows) {
    chunk += csvLine(cells(row));
    if (chunk.length >= CSV_CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** Reports of SPEC §2/§3/§7: summary and the four tabs, paged, sorted, filtered, grouped, as CSV. */
export class ReportService {
  readonly #summaryFigures = new SharedReads<SummaryFigures>(KEPT_SUMMARIES);
  /** Where deep pages of the link tab start (reports.repository.ts), per finished scan and filter. */
  readonly #urlCheckpoints = new SharedReads<UrlCheckpoint[]>(KEPT_SUMMARIES);

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

  /** GET /reports/BrokenLinksSummary/{id}: a running scan's totals and first broken links. */
  async brokenLinksSummary(user: SignedInUser | null, id: string): Promise<BrokenLinksSummary> {
    const row = await this.deps.scans.owned(user, id);
    const [reasons, links] = await Promise.all([
      reasonCounts(this.deps.db, id),
      brokenLinkRows(this.deps.db, id, 100),
    ]);
    return {
      status: row.status,
      badLinks: row.bad_links,
      uniqueBadLinks: row.unique_bad_links,
      totalLinks: row.total_links,
      uniqueLinks: row.unique_links,
      reasons,
      links,
    };
  }

  /**
   * GET api/report/summary/{id}. The figures read from the scan's rows are computed once per
   * scan and state (SharedReads): readers of one scan at the same time share the statements, and a
   * finished scan's figures are kept. `place` is asked for a heavy-read place before figures are
   * computed or joined, never for kept ones.
   */
  async summary(
    user: SignedInUser | null,
    id: string,
    place: HeavyReadPlace = noPlaceNeeded,
  ): Promise<ReportSummary> {
    const scan = await this.#scan(user, id);
    const key = summaryFiguresKey(scan);
    let figures = this.#summaryFigures.kept(key);
    if (!figures) {
      const release = await place();
      try {
        figures = await this.#summaryFigures.read(key, isFinishedStatus(scan.status), () =>
          this.#computeSummaryFigures(id),
        );
      } finally {
        release();
      }
    }
    const { reasons, buckets, types, categories, fattest, rules, brokenSamples } = figures;
    const summary = storedSummary(scan);
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
      brokenAnchors: summary.brokenAnchors,
      duplicateAnchors: summary.duplicateAnchors,
      fattestPages: fattest.total,
      certificateProblems: summary.certificateProblems,
      duration: Number(scan.duration_ms),
      // The settings as the owner asked for them (SPEC): the stored resolved scan less its linkLimit.
      scanSettingsJson: JSON.stringify(scanRequestSchema.parse(JSON.parse(scan.settings_json))),
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

  /** The summary's figures that come from the scan's result rows, not from its own row. */
  async #computeSummaryFigures(id: string): Promise<SummaryFigures> {
    const { db } = this.deps;
    const [reasons, buckets, types, categories, fattest, rules] = await Promise.all([
      reasonCounts(db, id),
      pageSizeBuckets(db, id),
      fileTypes(db, id),
      ruleCategoryCounts(db, id),
      pagePage(db, id, defaultQuery({ pageSize: 1 }), limits.fattestPageBytes),
      rulePage(db, id, defaultQuery({ pageSize: limits.ruleSamples })),
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
          )
        ).rows,
      })),
    );
    return { reasons, buckets, types, categories, fattest, rules, brokenSamples };
  }

  async links(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<LinkRow>> {
    const scan = await this.#scan(user, id);
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
    const { rows, total } = await linkPage(this.deps.db, id, query, (db, scanId, pageQuery) =>
      this.#urlCheckpoints.read(
        `${summaryFiguresKey(scan)}|${pageQuery.status}|${pageQuery.reason ?? ''}|${pageQuery.sortOrder}`,
        isFinishedStatus(scan.status),
        () => computeUrlCheckpoints(db, scanId, pageQuery),
      ),
    );
    return reportData(query, rows, total, filterCategories);
  }

  async pages(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<PageRow>> {
    await this.#scan(user, id);
    const { rows, total } = await pagePage(this.deps.db, id, query);
    return reportData(query, rows, total, []);
  }

  async rules(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<RuleRow>> {
    await this.#scan(user, id);
    const categories = await ruleCategoryCounts(this.deps.db, id);
    const { rows, total } = await rulePage(this.deps.db, id, query);
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

  /**
   * Every row of one tab matching the filters, as CSV (UTF-8 with BOM, formula-safe), streamed:
   * the scan is checked first (404 before any byte), then rows are read in batches as the
   * consumer takes the chunks.
   */
  async csv(
    user: SignedInUser | null,
    id: string,
    tab: ReportTab,
    query: ReportQuery,
  ): Promise<CsvExport> {
    await this.#scan(user, id);
    const db = this.deps.exportDb ?? this.deps.db;
    const fileName = `scan-${id}-${tab}.csv`;
    if (tab === 'link') {
      return {
        fileName,
        chunks: csvChunks(
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
          linkRows(db, id, query, CSV_BATCH_ROWS),
          (row) => [
            row.targetUri,
            row.sourceUri,
            row.statusCode,
            row.failureReason,
            row.statusDetail,
            row.referenceCount,
            row.line,
            row.column,
          ],
        ),
      };
    }
    if (tab === 'page') {
      return {
        fileName,
        chunks: csvChunks(
          ['Page', 'Status code', 'Total bytes', 'HTML bytes', 'Title'],
          pageRows(db, id, query, CSV_BATCH_ROWS),
          (row) => [row.uri, row.statusCode, row.contentSize, row.htmlSize, row.title],
        ),
      };
    }
    if (tab === 'ruleResult') {
      return {
        fileName,
        chunks: csvChunks(
          ['Page', 'Rule', 'Category', 'Line', 'Column', 'Snippet'],
          ruleRows(db, id, query, CSV_BATCH_ROWS),
          (row) => [
            row.uri,
            row.ruleName,
            ruleCategoryLabel(row.ruleCategoryID),
            row.line,
            row.column,
            row.snippet,
          ],
        ),
      };
    }
    // One row per content type: a handful, grouped by the database.
    const types = await fileTypes(db, id);
    return {
      fileName,
      chunks: csvChunks(['Content type', 'Files', 'Bytes'], types, (row) => [
        row.contentType,
        row.count,
        row.totalSize,
      ]),
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
