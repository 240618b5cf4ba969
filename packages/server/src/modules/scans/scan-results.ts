import type { Insertable, Kysely } from 'kysely';
import {
  RoomListeners,
  type Backpressure,
  type DoneEvent,
  type LinkEvent,
  type ScanEvent,
} from '@linkaudit/engine';
import { ruleGroupKeyOf } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { checkDetailJson } from './scan-checkpoint.js';
import type {
  ScanCertificatesTable,
  ScanDuplicateAnchorsTable,
  ScanLinksTable,
  ScanPageReadsTable,
  ScanRuleViolationsTable,
  ScanSuggestionsTable,
  ScanTargetsTable,
} from './scans.table.js';
import {
  writeFinalResults,
  writeResultBatch,
  type PageRecord,
  type ResultBatch,
} from './scan-results.repository.js';
import type { ScanTotals } from './scans.repository.js';
import { ReferenceCounts } from './reference-counts.js';

const flushEveryEvents = 500;
const flushEveryMs = 250;
/**
 * Events taken and not yet stored past which the writer is full (a Backpressure): the scan then
 * holds back until the database has caught up, so a site that yields events faster than they are
 * stored slows the scan down instead of growing this process's memory. About 4 batches: the
 * database always has the next one ready. (An isolated scan adds at most batchesInFlight of its
 * batches beyond it; one in this process, what the fetches under way report.)
 */
export const resultBacklogLimit = 2000;

/**
 * Writes a running scan's events in batched transactions (every 500 events or 250 ms), never row
 * by row. Targets get ids in memory (url → id) so link rows are plain numbers; pages are kept in
 * memory and written once their sizes, rank and inclusion are known (at the end).
 */
export class ScanResultWriter implements Backpressure {
  readonly #targetIds = new Map<string, number>();
  readonly #references = new ReferenceCounts();
  readonly #pages = new Map<string, PageRecord>();
  #targets: Array<Insertable<ScanTargetsTable>> = [];
  #links: Array<Insertable<ScanLinksTable>> = [];
  #certificates: Array<Insertable<ScanCertificatesTable>> = [];
  #anchors: Array<Insertable<ScanDuplicateAnchorsTable>> = [];
  #rules: Array<Insertable<ScanRuleViolationsTable>> = [];
  #pageReads: Array<Insertable<ScanPageReadsTable>> = [];
  #suggestions: Array<Insertable<ScanSuggestionsTable>> = [];
  #pending = 0;
  /** Events taken and not yet stored (gathering, or in a write under way or waiting). */
  #backlog = 0;
  #peakBacklog = 0;
  readonly #room = new RoomListeners();
  #linkCount = 0;
  #badLinks = 0;
  #startStatus: number | null = null;
  #progress = { queued: 0, processed: 0, pages: 0, links: 0, broken: 0, elapsedMs: 0 };
  #writing: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  /** The timer went off while a write was under way: what waits goes as soon as it ends. */
  #due = false;
  /** Writes started and not yet ended (stored or failed). */
  #writesUnderWay = 0;
  #failure: Error | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly scanId: string,
    private readonly onProgress: (totals: ScanTotals) => void = () => {},
    /** The worker's lease: every write checks it first, so a lost attempt writes nothing. */
    private readonly leaseOwner?: string,
  ) {}

  /** Takes one event; never blocks the engine (isFull tells it to hold back). */
  add(event: ScanEvent): void {
    this.#record(event);
    this.#pending += 1;
    this.#backlog += 1;
    this.#peakBacklog = Math.max(this.#peakBacklog, this.#backlog);
    if (this.#pending >= flushEveryEvents) this.#flushUnlessWriting();
    else {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.#due = true;
        this.#flushUnlessWriting();
      }, flushEveryMs);
    }
  }

  /**
   * Group commit: while a write is under way, what arrives waits and goes with the next one, so a
   * database slower than the crawl gets fewer, larger transactions (up to the backlog's bound)
   * instead of a queue of 500-event ones, each paying its commit. On a 100,000-page site (SQLite,
   * a machine shared with other work) the scan waited on the results writer's commits, not its CPU.
   */
  #flushUnlessWriting(): void {
    if (this.#writesUnderWay === 0) void this.flush();
  }

  /** Starts writing what has gathered; resolves when everything so far is written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = false;
    const events = this.#pending;
    this.#pending = 0;
    const batch = this.#takeBatch();
    const totals = this.totals();
    this.#writing = this.#writing
      .then(() => writeResultBatch(this.db, this.scanId, batch, totals, this.leaseOwner))
      .catch((error: unknown) => {
        this.#failure ??= error instanceof Error ? error : new Error('writing results failed');
      })
      // Stored, or failed (the scan then fails at its end): either way no longer held.
      .finally(() => {
        this.#writesUnderWay -= 1;
        this.#stored(events);
        if (this.#pending >= flushEveryEvents || (this.#due && this.#pending > 0))
          this.#flushUnlessWriting();
      });
    this.#writesUnderWay += 1;
    this.onProgress(totals);
    return this.#writing;
  }

  isFull(): boolean {
    return this.#backlog >= resultBacklogLimit;
  }

  onRoom(resume: () => void): void {
    this.#room.add(resume);
  }

  /** The most events held at once so far (the bound the backpressure keeps). */
  get peakBacklog(): number {
    return this.#peakBacklog;
  }

  #stored(events: number): void {
    const wasFull = this.isFull();
    this.#backlog -= events;
    if (wasFull && !this.isFull()) this.#room.notify();
  }

  /** After `done`: the last rows, the pages, reference counts and final totals. */
  async finish(done: DoneEvent): Promise<void> {
    await this.flush();
    if (this.#failure) throw this.#failure;
    const pages = [...new Map([...this.#pages.values()].map((page) => [page.id, page])).values()];
    const summary = done.summary;
    await writeFinalResults(
      this.db,
      this.scanId,
      pages,
      this.#references.changed(),
      {
        totalQueuedLinks: 0,
        totalLinks: summary.totalLinks,
        uniqueLinks: summary.uniqueLinks,
        badLinks: summary.brokenLinks,
        uniqueBadLinks: summary.uniqueBrokenLinks,
        numPages: summary.pages,
        durationMs: summary.durationMs,
        statusCode: this.#startStatus,
      },
      this.leaseOwner,
    );
  }

  totals(): ScanTotals {
    const progress = this.#progress;
    return {
      totalQueuedLinks: progress.queued,
      totalLinks: Math.max(progress.links, this.#linkCount),
      uniqueLinks: progress.processed,
      badLinks: this.#badLinks,
      uniqueBadLinks: progress.broken,
      numPages: Math.max(progress.pages, this.#pages.size === 0 ? 0 : progress.pages),
      durationMs: progress.elapsedMs,
    };
  }

  #record(event: ScanEvent): void {
    switch (event.type) {
      case 'page': {
        const page = this.#page(event.finalUrl);
        Object.assign(page, {
          status_code: event.statusCode,
          content_type: event.contentType,
          html_bytes: event.bytes,
          total_bytes: Math.max(Number(page.total_bytes ?? 0), event.bytes),
          depth: event.depth,
          title: event.title ?? null,
        });
        this.#pages.set(event.url, page);
        if (event.depth === 1) this.#startStatus ??= event.statusCode;
        return;
      }
      case 'page-read':
        // The page checkpoint (scan-checkpoint.ts): written with the batch that holds it.
        this.#pageReads.push({
          scan_id: this.scanId,
          url: event.record.url,
          record_json: JSON.stringify(event.record),
        });
        return;
      case 'link':
        return this.#recordLink(event);
      case 'duplicate-anchor':
        this.#anchors.push({
          scan_id: this.scanId,
          page_id: Number(this.#page(event.page).id),
          name: event.name,
          line: event.duplicate.line,
          col: event.duplicate.column,
          first_line: event.first.line,
          first_col: event.first.column,
        });
        return;
      case 'certificate':
        this.#certificates.push({
          scan_id: this.scanId,
          host: event.host,
          valid: event.valid,
          problem: event.problem ?? null,
          message: event.message,
          valid_to: event.validTo ?? null,
          days_left: event.daysLeft ?? null,
          expires_soon: event.expiresSoon,
        });
        return;
      case 'page-size':
        Object.assign(this.#page(event.page), {
          total_bytes: event.totalBytes,
          html_bytes: event.htmlBytes,
          contents_json: JSON.stringify(
            event.contents.map(({ contentType, totalSize }) => ({ contentType, totalSize })),
          ),
        });
        return;
      case 'page-rank':
        Object.assign(this.#page(event.page), { page_rank: event.rank, rank_score: event.score });
        return;
      case 'page-inclusion': {
        const { type: _type, page, ...inclusion } = event;
        Object.assign(this.#page(page), {
          inclusion_json: JSON.stringify(inclusion),
          inbound_links: inclusion.inboundLinks,
          in_sitemap: inclusion.inSitemap,
          orphan: inclusion.orphan,
        });
        return;
      }
      case 'progress':
        this.#progress = event;
        return;
      case 'rule':
        this.#rules.push({
          scan_id: this.scanId,
          page_id: Number(this.#page(event.url).id),
          // The engine numbers its rules; the column (and the report's ruleId) holds text.
          rule_id: String(event.ruleId),
          rule_name: event.ruleName,
          category_id: event.categoryID,
          line: event.line,
          col: event.column,
          snippet: event.snippet,
          message: event.message ?? null,
          group_key: ruleGroupKeyOf(event.message, event.snippet),
        });
        return;
      case 'suggestion':
        this.#suggestions.push({
          scan_id: this.scanId,
          url: event.url,
          fragment: event.fragment ?? '',
          kind: event.suggestion.kind,
          basis: event.suggestion.basis,
          suggested_url: event.suggestion.url,
          confidence: event.suggestion.confidence,
          hops: event.suggestion.hops,
        });
        return;
      case 'done':
        return;
    }
  }

  #recordLink(event: LinkEvent): void {
    this.#linkCount += 1;
    const check = event.check;
    if (check.state === 'broken') this.#badLinks += 1;
    // Links without a URL (missing attribute, invalid address) are one target each.
    let targetId = event.url === '' ? undefined : this.#targetIds.get(event.url);
    if (targetId === undefined) {
      targetId = this.#nextTargetId++;
      if (event.url !== '') this.#targetIds.set(event.url, targetId);
      this.#targets.push({
        scan_id: this.scanId,
        id: targetId,
        url: event.url,
        state: check.state,
        reason: targetReasonOf(check),
        status_code: 'statusCode' in check ? (check.statusCode ?? null) : null,
        message: 'message' in check ? check.message : null,
        content_type: check.state === 'ok' ? (check.contentType ?? null) : null,
        size: check.state === 'ok' ? (check.size ?? null) : null,
        internal: event.internal,
        check_detail_json: checkDetailJson(event.url, check),
      });
    }
    this.#references.add(targetId);
    this.#links.push({
      scan_id: this.scanId,
      id: this.#linkCount,
      page_id: Number(this.#page(event.source).id),
      target_id: targetId,
      target: event.target,
      element: event.element,
      line: event.line,
      col: event.column,
      anchor_fragment: event.anchor?.fragment ?? null,
      anchor_state: event.anchor?.state ?? null,
    });
  }

  #nextTargetId = 1;

  #page(url: string): PageRecord {
    let page = this.#pages.get(url);
    if (!page) {
      const id = this.#nextPageId++;
      page = { scan_id: this.scanId, id, url, html_bytes: 0, total_bytes: 0, depth: 0 };
      this.#pages.set(url, page);
    }
    return page;
  }

  #nextPageId = 1;

  #takeBatch(): ResultBatch {
    // A target's row goes with its links so far; links to it in later batches update it at the end.
    for (const target of this.#targets) target.reference_count = this.#references.store(target.id);
    const batch = {
      targets: this.#targets,
      links: this.#links,
      certificates: this.#certificates,
      anchors: this.#anchors,
      rules: this.#rules,
      pageReads: this.#pageReads,
      suggestions: this.#suggestions,
    };
    this.#targets = [];
    this.#links = [];
    this.#certificates = [];
    this.#anchors = [];
    this.#rules = [];
    this.#pageReads = [];
    this.#suggestions = [];
    return batch;
  }
}

/**
 * A target row's reason column: a broken link's failure reason (SPEC §8), an unverified link's
 * cause (bot-protection, rate-limited, needs-sign-in, host-too-slow) and a working link's warning
 * (soft-404, login-wall; issue 35), so the link tab filters each by its `reason`.
 */
export function targetReasonOf(check: LinkEvent['check']): string | null {
  if (check.state === 'broken') return check.reason;
  if (check.state === 'unverified') return check.cause;
  if (check.state === 'ok') return check.warning ?? null;
  return null;
}
