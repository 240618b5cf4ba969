import type { Kysely } from 'kysely';
import {
  type ScanChangesQuery,
  brokenAnchorReason,
  csvCell,
  limits,
  isFinishedStatus,
  reportMessages,
  ruleCategoryLabel,
  suggestionLine,
  type BrokenLinksSummary,
  type DuplicateAnchorRow,
  type FileTypeRow,
  type LinkRow,
  type PageInclusionRow,
  type PageRow,
  type ReportData,
  type ReportQuery,
  type ReportSummary,
  type RuleCountsReport,
  type RuleGroupsReport,
  type RuleRow,
  type AccountLanguage,
  type SampleSiteScanId,
  type ReportTab,
  type TriageFilter,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { SampleReportService } from '../sample-report/sample-report.service.js';
import type { ScanRow, ScanService } from '../scans/scans.service.js';
import {
  assembleReport,
  defaultQuery,
  reportFigures,
  reportFiguresKey,
  type ReportFigures,
} from './report-model.js';
import { scanChanges } from './scan-changes.js';
import { storedScanChanges } from './stored-changes.js';
import {
  storeFinishedFigures,
  storedCheckpoints,
  summaryFigures,
  tabFigures,
  type TabFigures,
} from './stored-figures.js';
import { markCounts, marksOf, triageScopeOf } from './triage.repository.js';
import { withoutIgnored } from './triage-figures.js';
import { SharedReads } from './shared-reads.js';
import {
  brokenAnchorLinks,
  brokenLinkRows,
  computeUrlCheckpoints,
  ignoredFigures,
  linkGroups,
  linkPage,
  linkRows,
  linkRowsWithSuggestions,
  reasonCounts,
  ruleCategoryCounts,
  ruleCounts,
  ruleGroupPage,
  rulePage,
  ruleRows,
  type TriageReading,
  type UrlCheckpoint,
} from './reports.repository.js';
import { streamPdf } from './pdf/pdf-stream.js';
import { reportData, type ReportReader } from './report-reader.js';
import {
  duplicateAnchorCsv,
  duplicateAnchorTabPage,
  duplicateAnchorTabRows,
} from './tabs/duplicate-anchor-tab.js';
import { fileTypeCsv, fileTypePage, fileTypeRows } from './tabs/file-type-tab.js';
import {
  pageInclusionCsv,
  pageInclusionTabPage,
  pageInclusionTabRows,
} from './tabs/page-inclusion-tab.js';
import { pageCsv, pageTabPage, pageTabRows } from './tabs/page-tab.js';
import { pdfPageOptions, writeReportPdf } from './pdf/report-pdf.js';

/**
 * Figures of finished scans kept in memory (a few kB each: samples of 10 links per reason), and
 * as many sets of link-tab checkpoints (~20 kB for 110,000 URLs).
 */
const KEPT_REPORTS = 200;

/** Waits for a heavy-read place and gives back its release (reports.routes.ts: per-user limit). */
export type HeavyReadPlace = () => Promise<() => void>;
const noPlaceNeeded: HeavyReadPlace = () => Promise.resolve(() => {});

export interface ReportServiceDeps {
  db: Kysely<Database>;
  /** CSV exports read here (connections of their own, database.ts); `db` when absent. */
  exportDb?: Kysely<Database>;
  scans: ScanService;
  samples: SampleReportService;
  /**
   * Where the owners' triage marks are looked up before a read (a key lookup): not the report
   * connections, which heavy reads may hold, so a kept summary still answers at once. `db` when
   * absent.
   */
  marksDb?: Kysely<Database>;
  /** Where figures computed for a finished scan are stored (not a read-only report lane). */
  writeDb?: Kysely<Database>;
}

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

/** What a PDF of a report answers: its file name and its bytes, produced as they are written. */
export interface PdfExport {
  fileName: string;
  /** Stopping the iteration stops the writing and the database reading. */
  chunks: AsyncIterable<Buffer>;
}

/** Rows read per step while a PDF is written (~40 pages of the PDF). */
const PDF_BATCH_ROWS = 500;

/** A scan URL's host for a file name (letters, digits, dots and dashes only). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/[^A-Za-z0-9.-]/g, '') || 'scan';
  } catch {
    return 'scan';
  }
}

/** Reports of SPEC §2/§3/§7: summary and the four tabs, paged, sorted, filtered, grouped, as CSV. */
export class ReportService {
  /** A running scan's summary figures, shared by its concurrent readers (never kept). */
  readonly #reportFigures = new SharedReads<ReportFigures>(KEPT_REPORTS);
  /** Finished scans' stored figures (stored-figures.ts), kept once read. */
  readonly #tabFigures = new SharedReads<TabFigures>(KEPT_REPORTS);
  readonly #summaries = new SharedReads<ReportFigures>(KEPT_REPORTS);
  /** Where deep pages of the link tab start (reports.repository.ts), per finished scan and filter. */
  readonly #urlCheckpoints = new SharedReads<UrlCheckpoint[]>(KEPT_REPORTS);

  constructor(private readonly deps: ReportServiceDeps) {}

  get #writeDb(): Kysely<Database> {
    return this.deps.writeDb ?? this.deps.db;
  }

  /**
   * The Finalizing step of a scan (issue 34): what its report reads need, stored from its final
   * results before its end is written, so no read of the finished scan counts its rows.
   */
  async storeFinished(scanId: string): Promise<void> {
    const scan = await this.deps.scans.find(scanId);
    if (scan) await storeFinishedFigures(this.deps.db, this.#writeDb, scan);
  }

  /**
   * A finished scan's stored figures (computed and stored on the first read of a scan finished
   * before they existed), kept in memory once read; undefined while the scan runs.
   */
  async #stored(scan: ScanRow): Promise<TabFigures | undefined> {
    if (!isFinishedStatus(scan.status)) return undefined;
    return this.#tabFigures.read(reportFiguresKey(scan), true, () =>
      tabFigures(this.deps.db, this.#writeDb, scan.id),
    );
  }

  /** The report reader of one request (report-reader.ts): the scan, once its reader may read it. */
  async #reader(user: SignedInUser | null, id: string): Promise<ReportReader> {
    return this.#readerOf(await this.#scan(user, id));
  }

  #readerOf(scan: ScanRow): ReportReader {
    let stored: Promise<TabFigures | undefined> | undefined;
    return {
      scan,
      db: this.deps.db,
      exportDb: this.deps.exportDb ?? this.deps.db,
      // Asked once per request, whichever tab asks.
      stored: () => (stored ??= this.#stored(scan)),
    };
  }

  /** The summary's figures: stored for a finished scan, else read live (shared, not kept). */
  async #summaryFigures(scan: ScanRow): Promise<ReportFigures> {
    const key = reportFiguresKey(scan);
    if (isFinishedStatus(scan.status)) {
      return this.#summaries.read(key, true, () =>
        summaryFigures(this.deps.db, this.#writeDb, scan.id),
      );
    }
    return this.#reportFigures.read(key, false, () => reportFigures(this.deps.db, scan.id));
  }

  /** The owner's scan, an admin's view, or the sample scan (readable by anyone). */
  async #scan(user: SignedInUser | null, id: string): Promise<ScanRow> {
    const sample = await this.deps.samples.scanId();
    if (sample === id) return this.deps.scans.owned({ ...anyone, id: 'sample' }, id);
    return this.deps.scans.owned(user, id);
  }

  /**
   * How a read of `scan` takes its owner's triage marks (issue 27) for `filter`: undefined when
   * the site has none (the reads keep every shortcut); `open` leaves ignored rows out.
   */
  async #marks(scan: ScanRow, filter: TriageFilter): Promise<TriageReading | undefined> {
    const scope = triageScopeOf(scan);
    const { counts, version } = await markCounts(this.deps.marksDb ?? this.deps.db, scope);
    const ignored = [...counts].some(([key, count]) => key.endsWith(' ignored') && count > 0);
    if (filter === 'open') {
      if (counts.size === 0) return undefined;
      return ignored
        ? { scope, version, rows: { mark: 'ignored', exclude: true } }
        : { scope, version };
    }
    if (filter === 'all') return counts.size === 0 ? undefined : { scope, version };
    return { scope, version, rows: { mark: filter, exclude: false } };
  }

  /** GET /api/report/changes/{id}: the scan's problems against the site's previous scan. */
  async changes(user: SignedInUser | null, id: string, query: ScanChangesQuery) {
    const scan = await this.#scan(user, id);
    // A finished scan's changes were stored when it finished (stored-changes.ts).
    if (isFinishedStatus(scan.status))
      return storedScanChanges(this.deps.db, this.#writeDb, scan, query);
    return scanChanges(this.deps.db, scan, query);
  }

  /**
   * GET /api/report/changes/{id}?format=csv (issue 37): every change matching state, kind and
   * triage, as the Changes tab lists them, read a thousand rows at a time. 404 before any byte.
   */
  async changesCsv(
    user: SignedInUser | null,
    id: string,
    query: ScanChangesQuery,
  ): Promise<CsvExport> {
    await this.#scan(user, id);
    const pageSize = 1000;
    const read = (page: number) => this.changes(user, id, { ...query, page, pageSize });
    async function* rows() {
      for (let page = 1; ; page++) {
        const { rows: batch } = await read(page);
        yield* batch;
        if (batch.length < pageSize) return;
      }
    }
    return {
      fileName: `scan-${id}-changes.csv`,
      chunks: csvChunks(
        ['State', 'Kind', 'Problem', 'Rule', 'Rule id', 'First seen', 'Mark', 'Note'],
        rows(),
        (row) => [
          row.state,
          row.kind,
          row.target,
          row.detail,
          row.ruleId,
          row.firstSeen,
          row.triage?.mark ?? null,
          row.triage?.note ?? null,
        ],
      ),
    };
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
      logMessage: row.log_message,
      badLinks: row.bad_links,
      uniqueBadLinks: row.unique_bad_links,
      totalLinks: row.total_links,
      uniqueLinks: row.unique_links,
      reasons,
      links,
    };
  }

  /**
   * GET /api/report/summary/{id}: the report model (report-model.ts) the print view shares. Its
   * figures read from the scan's result rows are computed once per scan and state (SharedReads):
   * readers of one scan at the same time share the statements, and a finished scan's figures are
   * kept. `place` is asked for a heavy-read place before figures are computed or joined, never
   * for kept ones.
   */
  async summary(
    user: SignedInUser | null,
    id: string,
    place: HeavyReadPlace = noPlaceNeeded,
  ): Promise<ReportSummary> {
    const scan = await this.#scan(user, id);
    let figures = this.#summaries.kept(reportFiguresKey(scan));
    if (!figures) {
      const release = await place();
      try {
        figures = await this.#summaryFigures(scan);
      } finally {
        release();
      }
    }
    return this.#withoutIgnored(
      scan,
      assembleReport(scan, figures),
      await this.#marks(scan, 'open'),
    );
  }

  /**
   * The report less what its owner ignored, by the `open` reading of the owner's marks (read
   * anew each time: marks change any time).
   */
  async #withoutIgnored(
    scan: ScanRow,
    report: ReportSummary,
    marks: TriageReading | undefined,
  ): Promise<ReportSummary> {
    if (!marks?.rows) return report;
    const [ignored, sampleMarks] = await Promise.all([
      ignoredFigures(this.deps.db, scan.id, marks.scope),
      marksOf(this.deps.db, marks.scope, [
        ...report.brokenSamples.flatMap((sample) =>
          sample.links.map((row) => ({
            kind:
              row.failureReason === brokenAnchorReason ? ('anchor' as const) : ('link' as const),
            target: row.targetUri,
          })),
        ),
        ...report.ruleSamples.map((row) => ({
          kind: 'rule' as const,
          target: row.uri,
          ruleId: row.ruleId,
        })),
      ]),
    ]);
    return withoutIgnored(report, ignored, sampleMarks);
  }

  /**
   * The report as a PDF (report-pdf.ts) in `language`: the scan's access is checked before
   * anything is sent; the model's figures (shared with the summary), the fattest pages and every
   * broken link are then read while the PDF is written, rows 500 at a time from the export
   * connections, so its first bytes leave at once and memory stays bounded.
   */
  async pdf(user: SignedInUser | null, id: string, language: AccountLanguage): Promise<PdfExport> {
    const scan = await this.#scan(user, id);
    const db = this.deps.exportDb ?? this.deps.db;
    const chunks = streamPdf(pdfPageOptions, async (writer) => {
      const figures = await this.#summaryFigures(scan);
      // The PDF is the report as its owner triaged it: ignored problems are left out.
      const marks = await this.#marks(scan, 'open');
      await writeReportPdf(writer, {
        language,
        model: await this.#withoutIgnored(scan, assembleReport(scan, figures), marks),
        scannedAt: new Date(scan.created_at),
        ruleCounts: await ruleCounts(db, id, undefined, marks),
        fattest: pageTabRows(
          this.#readerOf(scan),
          defaultQuery({}),
          PDF_BATCH_ROWS,
          limits.fattestPageBytes,
        ),
        duplicates: duplicateAnchorTabRows(this.#readerOf(scan), defaultQuery({}), PDF_BATCH_ROWS),
        broken: linkRowsWithSuggestions(
          db,
          id,
          { ...defaultQuery({ status: 'broken' }), marks },
          PDF_BATCH_ROWS,
        ),
      });
    });
    return { fileName: `linkaudit-${hostOf(scan.url)}-${id.slice(0, 8)}.pdf`, chunks };
  }

  async links(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<LinkRow>> {
    const scan = await this.#scan(user, id);
    const marks = await this.#marks(scan, query.triage);
    const triaged = { ...query, marks };
    const stored = await this.#stored(scan);
    const [reasons, anchorLinks] = await this.#linkFigures(scan, marks, stored?.anchorLinks);
    // Broken anchors are a failure of their own, after the reasons of SPEC §8.
    const categories =
      anchorLinks > 0
        ? [...reasons, { failureReason: brokenAnchorReason, numberOfReferences: anchorLinks }]
        : reasons;
    const filterCategories = categories.map((reason) => ({
      name: reason.failureReason,
      value: reason.failureReason,
      count: reason.numberOfReferences,
      allRules: categories.length,
    }));
    if (query.groupBy !== 'none') {
      const { groups, total } = await linkGroups(this.deps.db, id, triaged, stored?.anchorLinks);
      return reportData(query, [], total, filterCategories, groups);
    }
    const { rows, total } = await linkPage(
      this.deps.db,
      id,
      triaged,
      (db, scanId, filter) =>
        this.#urlCheckpoints.read(
          `${reportFiguresKey(scan)}|${filter.status}|${filter.reason ?? ''}|${filter.sortOrder}|${filter.marks?.rows ? filter.marks.version : ''}`,
          isFinishedStatus(scan.status),
          // Of every target (no marks picking rows): stored with the finished scan.
          () =>
            stored && !filter.marks?.rows
              ? storedCheckpoints(db, this.#writeDb, scanId, filter)
              : computeUrlCheckpoints(db, scanId, filter),
        ),
      stored?.anchorLinks,
    );
    return reportData(query, rows, total, filterCategories);
  }

  /**
   * The link tab's failure reasons and broken anchor links: of the rows the triage filter shows
   * when it leaves ignored ones out, else of them all.
   */
  async #linkFigures(
    scan: ScanRow,
    marks: TriageReading | undefined,
    storedAnchorLinks: number | undefined,
  ) {
    const [reasons, anchorLinks] = await Promise.all([
      reasonCounts(this.deps.db, scan.id),
      storedAnchorLinks ?? brokenAnchorLinks(this.deps.db, scan.id),
    ]);
    if (!marks?.rows?.exclude) return [reasons, anchorLinks] as const;
    const ignored = await ignoredFigures(this.deps.db, scan.id, marks.scope);
    const less = new Map(ignored.links.map((row) => [row.reason, row.links]));
    const open = reasons
      .map((row) => ({
        ...row,
        numberOfReferences: row.numberOfReferences - (less.get(row.failureReason) ?? 0),
      }))
      .filter((row) => row.numberOfReferences > 0);
    return [open, anchorLinks - ignored.brokenAnchors] as const;
  }

  async pages(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<PageRow>> {
    return pageTabPage(await this.#reader(user, id), query);
  }

  async rules(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<RuleRow>> {
    const scan = await this.#scan(user, id);
    const marks = await this.#marks(scan, query.triage);
    // Stored counts are of every finding: a read that picks findings by mark counts them itself.
    const stored = marks?.rows ? undefined : await this.#stored(scan);
    const categories = stored?.categories ?? (await ruleCategoryCounts(this.deps.db, id, marks));
    const { rows, total } = await rulePage(
      this.deps.db,
      id,
      { ...query, marks },
      stored && storedRuleTotal(stored, query),
    );
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

  /** The rule tab's grouped view, first level: findings, pages and groups per rule (issue 25). */
  async ruleCounts(
    user: SignedInUser | null,
    id: string,
    query: { category?: string | undefined; triage: TriageFilter },
  ): Promise<RuleCountsReport> {
    const scan = await this.#scan(user, id);
    const marks = await this.#marks(scan, query.triage);
    const stored = marks?.rows ? undefined : await this.#stored(scan);
    const rules = stored
      ? stored.rules.filter(
          (rule) => !query.category || rule.ruleCategoryID === Number(query.category),
        )
      : await ruleCounts(this.deps.db, id, query.category, marks);
    return { rules, findings: rules.reduce((sum, rule) => sum + rule.findings, 0) };
  }

  /** One rule's findings in groups of identical findings, largest first, paged. */
  async ruleGroups(
    user: SignedInUser | null,
    id: string,
    query: { ruleId: string; page: number; pageSize: number; triage: TriageFilter },
  ): Promise<RuleGroupsReport> {
    const scan = await this.#scan(user, id);
    const marks = await this.#marks(scan, query.triage);
    const { rows, total } = await ruleGroupPage(this.deps.db, id, { ...query, marks });
    return { lists: rows, total, page: query.page, pageSize: query.pageSize };
  }

  /** Each repeat of an id (or a[name]) on a page, with where it was first defined. */
  async duplicateAnchors(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<DuplicateAnchorRow>> {
    return duplicateAnchorTabPage(await this.#reader(user, id), query);
  }

  /** Every page's inclusion (scans that checked it): incoming links, sitemap, orphans, rank. */
  async pageInclusion(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<PageInclusionRow>> {
    return pageInclusionTabPage(await this.#reader(user, id), query);
  }

  async fileTypes(
    user: SignedInUser | null,
    id: string,
    query: ReportQuery,
  ): Promise<ReportData<FileTypeRow>> {
    return fileTypePage(await this.#reader(user, id), query);
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
    const scan = await this.#scan(user, id);
    const db = this.deps.exportDb ?? this.deps.db;
    const fileName = `scan-${id}-${tab}.csv`;
    // The export is of the rows the tab shows: the same triage filter (ignored rows left out).
    const triaged = { ...query, marks: await this.#marks(scan, query.triage) };
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
            // Issue 27, appended so the columns before it stay as they were.
            'Suggested fix',
          ],
          linkRows(db, id, triaged, CSV_BATCH_ROWS),
          (row) => [
            row.targetUri,
            row.sourceUri,
            row.statusCode,
            row.failureReason,
            row.statusDetail,
            row.referenceCount,
            row.line,
            row.column,
            row.suggestion && suggestionLine(row.suggestion),
          ],
        ),
      };
    }
    if (tab === 'page') {
      return {
        fileName,
        chunks: csvChunks(
          pageCsv.header,
          pageTabRows(this.#readerOf(scan), query, CSV_BATCH_ROWS),
          pageCsv.cells,
        ),
      };
    }
    if (tab === 'ruleResult') {
      return {
        fileName,
        chunks: csvChunks(
          ['Page', 'Rule', 'Category', 'Line', 'Column', 'Snippet', 'Message', 'Note', 'Rule URL'],
          ruleRows(db, id, triaged, CSV_BATCH_ROWS),
          (row) => [
            row.uri,
            row.ruleName,
            ruleCategoryLabel(row.ruleCategoryID),
            row.line,
            row.column,
            row.snippet,
            row.message,
            row.ruleNote,
            row.ruleURL,
          ],
        ),
      };
    }
    if (tab === 'duplicateAnchor') {
      return {
        fileName,
        chunks: csvChunks(
          duplicateAnchorCsv.header,
          duplicateAnchorTabRows(this.#readerOf(scan), query, CSV_BATCH_ROWS),
          duplicateAnchorCsv.cells,
        ),
      };
    }
    if (tab === 'pageInclusion') {
      return {
        fileName,
        chunks: csvChunks(
          pageInclusionCsv.header,
          pageInclusionTabRows(this.#readerOf(scan), query, CSV_BATCH_ROWS),
          pageInclusionCsv.cells,
        ),
      };
    }
    const types = await fileTypeRows(this.#readerOf(scan), db);
    return { fileName, chunks: csvChunks(fileTypeCsv.header, types, fileTypeCsv.cells) };
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

/** The rule tab's total by the stored counts (undefined for a group: counted when read). */
function storedRuleTotal(stored: TabFigures, query: ReportQuery): number | undefined {
  if (query.ruleId && query.group !== undefined) return undefined;
  const category = query.category ? Number(query.category) : undefined;
  if (query.ruleId) {
    return stored.rules
      .filter((rule) => rule.ruleId === query.ruleId)
      .filter((rule) => category === undefined || rule.ruleCategoryID === category)
      .reduce((sum, rule) => sum + rule.findings, 0);
  }
  return stored.categories
    .filter((row) => category === undefined || row.categoryID === category)
    .reduce((sum, row) => sum + row.count, 0);
}
