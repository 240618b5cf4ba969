import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import {
  brokenAnchorReason,
  type DuplicateAnchorRow,
  type InclusionCategory,
  type PageInclusionRow,
  type FileTypeRow,
  type LinkRow,
  type PageRow,
  type ReportQuery,
  type RuleGroup,
  type RuleRow,
  type RowTriage,
  type Suggestion,
  type TriageMarkName,
  triageKeyOf,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toBoolean } from '../../db/values.js';
import { storedSuggestion, suggestionTable, type SuggestionTable } from './link-suggestions.js';
import { ruleNoteOf } from './rule-notes.js';
import { findingMarked, markedTargets, marksOf, type TriageScope } from './triage.repository.js';

/** Report reads over a scan's result tables; every query is keyed by (scan_id, …) indexes. */

/**
 * How a read takes the owner's triage marks (issue 27): the marks of `scope` are put on the rows,
 * and with `rows` only the rows with (or, `exclude`, without) that mark are read. Absent when the
 * site has no marks (the reads then keep their shortcuts).
 */
export interface TriageReading {
  scope: TriageScope;
  /** Changes with every change of the site's marks (keys of kept reads made with them). */
  version: string;
  rows?: { mark: TriageMarkName; exclude: boolean };
}

/** A tab's query with the triage marks to read it by. */
export type TriagedQuery = ReportQuery & { marks?: TriageReading };

/**
 * A finished scan's link occurrences by target state and reason, as stored with its final
 * results; undefined while it runs (or for a scan that has no links: counting those is free).
 */
async function storedLinkCounts(
  db: Kysely<Database>,
  scanId: string,
): Promise<Array<{ state: string; reason: string | null; links: number }> | undefined> {
  const rows = await db
    .selectFrom('scan_link_counts')
    .select(['state', 'reason', 'links'])
    .where('scan_id', '=', scanId)
    .execute();
  if (rows.length === 0) return undefined;
  return rows.map((row) => ({ ...row, links: Number(row.links) }));
}

/** Broken link occurrences by failure reason, most first (stored counts when the scan has them). */
export async function reasonCounts(
  db: Kysely<Database>,
  scanId: string,
): Promise<Array<{ failureReason: string; numberOfReferences: number }>> {
  const stored = await storedLinkCounts(db, scanId);
  const counts = stored
    ? stored
        .filter((row) => row.state === 'broken')
        .map((row) => ({ reason: row.reason, count: row.links }))
    : await liveReasonCounts(db, scanId);
  return counts
    .map((row) => ({ failureReason: row.reason ?? '', numberOfReferences: row.count }))
    .sort(
      (a, b) =>
        b.numberOfReferences - a.numberOfReferences ||
        compareText(a.failureReason, b.failureReason),
    );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function liveReasonCounts(db: Kysely<Database>, scanId: string) {
  const rows = await db
    .selectFrom('scan_links as l')
    .innerJoin('scan_targets as t', (join) =>
      join.onRef('t.scan_id', '=', 'l.scan_id').onRef('t.id', '=', 'l.target_id'),
    )
    .select(['t.reason', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('l.scan_id', '=', scanId)
    .where('t.state', '=', 'broken')
    .groupBy('t.reason')
    .execute();
  return rows.map((row) => ({ reason: row.reason, count: Number(row.count) }));
}

/** Unique broken targets with their occurrence counts (live summary). */
export async function brokenLinkRows(db: Kysely<Database>, scanId: string, limit: number) {
  const rows = await db
    .selectFrom('scan_targets as t')
    .select(['t.url', 't.status_code', 't.reason'])
    .select((eb) =>
      eb
        .selectFrom('scan_links as l')
        .select(eb.fn.countAll<number | string>().as('c'))
        .whereRef('l.scan_id', '=', 't.scan_id')
        .whereRef('l.target_id', '=', 't.id')
        .as('references'),
    )
    .where('t.scan_id', '=', scanId)
    .where('t.state', '=', 'broken')
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    targetUri: row.url,
    statusCode: row.status_code,
    failureReason: row.reason,
    referenceCount: Number(row.references ?? 0),
  }));
}

/** The query's page of `rows` (SPEC's page numbers start at 1). */
function pageOf<Paged>(
  rows: { limit(limit: number): { offset(offset: number): Paged } },
  query: { page: number; pageSize: number },
): Paged {
  return rows.limit(query.pageSize).offset((query.page - 1) * query.pageSize);
}

/** A count statement's one row (`count(*) as count`) as a number. */
async function counted(statement: {
  executeTakeFirstOrThrow(): Promise<{ count: number | string }>;
}): Promise<number> {
  return Number((await statement.executeTakeFirstOrThrow()).count);
}

/**
 * "One page plus the number of rows", written once for every tab: the page of `rows` in the
 * query's order, and the total `count` reads, or `knownTotal` when it was stored with the
 * finished scan (issue 34), so the read costs a page whatever the scan's size.
 */
async function pageAndTotal<Stored, Row>(
  rows: { limit(limit: number): { offset(offset: number): { execute(): Promise<Stored[]> } } },
  query: { page: number; pageSize: number },
  toRow: (row: Stored) => Row,
  knownTotal: number | undefined,
  count: () => Promise<number>,
): Promise<{ rows: Row[]; total: number }> {
  // A page past the known end (or of an empty tab) reads nothing: no rows to walk to find none.
  const pastEnd = knownTotal !== undefined && (query.page - 1) * query.pageSize >= knownTotal;
  const [page, total] = await Promise.all([
    pastEnd ? [] : pageOf(rows, query).execute(),
    knownTotal ?? count(),
  ]);
  return { rows: page.map(toRow), total };
}

/**
 * The column a sort key names on a tab, else the tab's default. Own keys only: a key such as
 * `constructor` must never reach the query builder as an inherited function.
 */
function sortColumnOf<Columns extends Record<string, string>>(
  columns: Columns,
  key: string | undefined,
  fallback: Columns[keyof Columns],
): Columns[keyof Columns] {
  return key !== undefined && Object.hasOwn(columns, key)
    ? (columns[key] as Columns[keyof Columns])
    : fallback;
}

/**
 * The link tab's query as the database reads it. Broken anchors (links to a #fragment their
 * working target page lacks) are broken links of their own: `reason=Broken Anchor` reads as the
 * `anchor` status, and the default `broken` status becomes `brokenOrAnchor` when the scan has any
 * (a scan without them keeps the target-only reads the paging shortcuts below rely on).
 */
export type LinkFilter = Omit<TriagedQuery, 'status'> & {
  status: ReportQuery['status'] | 'brokenOrAnchor';
  /** The scan's links to a missing anchor. */
  anchorLinks: number;
};

/** Link occurrences whose #fragment was not found on their (working) target page. */
export async function brokenAnchorLinks(db: Kysely<Database>, scanId: string): Promise<number> {
  const row = await db
    .selectFrom('scan_links')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('scan_id', '=', scanId)
    .where('anchor_state', '=', 'missing')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The query as the link tab reads it; `knownAnchorLinks` when stored with the scan. */
export async function linkFilterOf(
  db: Kysely<Database>,
  scanId: string,
  query: TriagedQuery,
  knownAnchorLinks?: number,
): Promise<LinkFilter> {
  const anchorLinks = knownAnchorLinks ?? (await brokenAnchorLinks(db, scanId));
  if (query.reason === brokenAnchorReason) {
    const { reason: _reason, ...rest } = query;
    return { ...rest, status: 'anchor', anchorLinks };
  }
  // A failure reason names broken targets only (an anchor's target works): no anchor matches it.
  if (query.status === 'broken' && anchorLinks > 0 && !query.reason)
    return { ...query, status: 'brokenOrAnchor', anchorLinks };
  return { ...query, anchorLinks };
}

/**
 * The links to broken targets and the links to missing anchors, each set read from its own index
 * (links by target, links by anchor state): an OR of the two conditions over the joined rows made
 * the database walk every link of the scan (185 ms at 20,000 links on SQLite, 530 on PostgreSQL).
 */
function brokenOrAnchorLinkIds(db: Kysely<Database>, scanId: string) {
  return db
    .selectFrom('scan_links as bl')
    .select('bl.id')
    .where('bl.scan_id', '=', scanId)
    .where('bl.target_id', 'in', (eb) =>
      eb
        .selectFrom('scan_targets as bt')
        .select('bt.id')
        .where('bt.scan_id', '=', scanId)
        .where('bt.state', '=', 'broken'),
    )
    .unionAll(
      db
        .selectFrom('scan_links as al')
        .select('al.id')
        .where('al.scan_id', '=', scanId)
        .where('al.anchor_state', '=', 'missing'),
    );
}

/**
 * A filter that is not of the targets' own state (the counts and paging shortcuts do not apply).
 * Leaving ignored URLs out keeps to whole targets, so the shortcuts still hold (less those URLs);
 * showing the marked rows picks single links (anchors) and does not.
 */
export function filtersLinks(query: LinkFilter): boolean {
  return (
    query.status === 'anchor' ||
    query.status === 'brokenOrAnchor' ||
    (query.marks?.rows !== undefined && !query.marks.rows.exclude)
  );
}

/** Whether the query's rows include links to missing anchors (their marks name single links). */
function readsAnchors(query: LinkFilter): boolean {
  return query.status === 'anchor' || query.status === 'brokenOrAnchor';
}

/**
 * The scan's broken targets whose URL the scope marked so: a few ids, found by URL in the scan
 * (scan_targets_url) and then matched by id, so a read filters its rows by a small set. Kysely
 * puts a subquery in parentheses itself ("in ((select …))" would be a scalar in SQLite).
 */
function markedTargetIds(
  db: Kysely<Database>,
  scanId: string,
  scope: TriageScope,
  mark: TriageMarkName,
) {
  return db
    .selectFrom('scan_targets as mt')
    .select('mt.id')
    .where('mt.scan_id', '=', scanId)
    .where('mt.state', '=', 'broken')
    .where('mt.url', 'in', markedTargets(db, scope, 'link', mark));
}

/** The scan's links to a missing anchor the scope marked so (by the link with its #fragment). */
function markedAnchorLinkIds(
  db: Kysely<Database>,
  scanId: string,
  scope: TriageScope,
  mark: TriageMarkName,
) {
  return db
    .selectFrom('scan_links as ml')
    .select('ml.id')
    .where('ml.scan_id', '=', scanId)
    .where('ml.anchor_state', '=', 'missing')
    .where('ml.target', 'in', markedTargets(db, scope, 'anchor', mark));
}

/**
 * The condition on link rows (`l` joined to `t`) of the query's triage filter; undefined when it
 * has none. Ignoring an anchor matters only where anchors are read (the broken and anchor views);
 * every link (`all`) is the inventory of the site's links.
 */
function linkTriageCondition(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  const rows = query.marks?.rows;
  if (!rows || !query.marks) return undefined;
  const targets = markedTargetIds(db, scanId, query.marks.scope, rows.mark);
  const anchors = markedAnchorLinkIds(db, scanId, query.marks.scope, rows.mark);
  if (!rows.exclude) return sql<boolean>`(t.id in ${targets} or l.id in ${anchors})`;
  return readsAnchors(query)
    ? sql<boolean>`(t.id not in ${targets} and l.id not in ${anchors})`
    : sql<boolean>`t.id not in ${targets}`;
}

/** Link rows the stored counts hold that the query's triage filter leaves out. */
async function ignoredLinkRows(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  const rows = query.marks?.rows;
  if (!rows?.exclude || !query.marks) return 0;
  const state = query.status === 'brokenOrAnchor' ? 'broken' : query.status;
  let targets = db
    .selectFrom('scan_targets as t')
    .select((eb) => eb.fn.sum<number | string | null>('t.reference_count').as('links'))
    .where('t.scan_id', '=', scanId)
    .where('t.id', 'in', markedTargetIds(db, scanId, query.marks.scope, rows.mark));
  if (state !== 'all') targets = targets.where('t.state', '=', state);
  if (query.reason) targets = targets.where('t.reason', '=', query.reason);
  const anchors =
    query.status === 'brokenOrAnchor' && !query.reason
      ? db
          .selectFrom(markedAnchorLinkIds(db, scanId, query.marks.scope, rows.mark).as('a'))
          .select((eb) => eb.fn.countAll<number | string>().as('links'))
          .executeTakeFirstOrThrow()
      : { links: 0 };
  const [fromTargets, fromAnchors] = await Promise.all([
    targets.executeTakeFirstOrThrow(),
    anchors,
  ]);
  return Number(fromTargets.links ?? 0) + Number(fromAnchors.links);
}

const linkSortColumns = {
  targetUri: 't.url',
  sourceUri: 'p.url',
  statusCode: 't.status_code',
  failureReason: 't.reason',
  referenceCount: 't.reference_count',
  line: 'l.line',
} as const;

/** Link occurrences joined to their target and page, filtered as the query says. */
function linkQuery(db: Kysely<Database>, scanId: string, query: LinkFilter, targetsFirst = false) {
  let q = db
    .selectFrom('scan_links as l')
    .innerJoin('scan_targets as t', (join) =>
      join.onRef('t.scan_id', '=', 'l.scan_id').onRef('t.id', '=', 'l.target_id'),
    )
    .innerJoin('scan_pages as p', (join) =>
      join.onRef('p.scan_id', '=', 'l.scan_id').onRef('p.id', '=', 'l.page_id'),
    )
    .where('l.scan_id', '=', scanId);
  if (targetsFirst) {
    // The same state and reason filters, as the set of matching targets (targetsFirst below).
    q = q.where('t.id', 'in', matchingTargets(db, scanId, query).select('t.id'));
  } else {
    if (query.status === 'anchor') q = q.where('l.anchor_state', '=', 'missing');
    else if (query.status === 'brokenOrAnchor')
      q = q.where('l.id', 'in', brokenOrAnchorLinkIds(db, scanId));
    else if (query.status !== 'all') q = q.where('t.state', '=', query.status);
    if (query.reason) q = q.where('t.reason', '=', query.reason);
  }
  if (query.target !== undefined) q = q.where('t.url', '=', query.target);
  if (query.source !== undefined) q = q.where('p.url', '=', query.source);
  const triage = linkTriageCondition(db, scanId, query);
  return triage ? q.where(triage) : q;
}

/** A scan's targets of the query's state and reason (never for `anchor`, a filter of links). */
function matchingTargets(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  let targets = db.selectFrom('scan_targets as t').where('t.scan_id', '=', scanId);
  if (query.status !== 'all') targets = targets.where('t.state', '=', query.status);
  if (query.reason) targets = targets.where('t.reason', '=', query.reason);
  if (query.target !== undefined) targets = targets.where('t.url', '=', query.target);
  const rows = query.marks?.rows;
  if (rows?.exclude && query.marks) {
    targets = targets.where(
      't.id',
      'not in',
      markedTargetIds(db, scanId, query.marks.scope, rows.mark),
    );
  }
  return targets;
}

/**
 * Links at most, by the stored counts, for which a page sorted by target starts from the matching
 * targets and sorts their links. SQLite's statistics know the average reason, not this one: for
 * a reason of a few links it walks every target in URL order to find them (2–3 s at 110,000
 * targets, once per reason in the summary's samples), where starting from the targets is a few ms.
 */
const FEW_LINKS = 2000;

/**
 * The same filters as linkQuery without joining the pages (every link has its page; a source
 * filter becomes a lookup of that one page), for counts and groups that need no page column, so
 * they read only the link and target indexes.
 */
function linkTargetQuery(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  let q = db
    .selectFrom('scan_links as l')
    .innerJoin('scan_targets as t', (join) =>
      join.onRef('t.scan_id', '=', 'l.scan_id').onRef('t.id', '=', 'l.target_id'),
    )
    .where('l.scan_id', '=', scanId);
  if (query.status === 'anchor') q = q.where('l.anchor_state', '=', 'missing');
  else if (query.status === 'brokenOrAnchor')
    q = q.where('l.id', 'in', brokenOrAnchorLinkIds(db, scanId));
  else if (query.status !== 'all') q = q.where('t.state', '=', query.status);
  if (query.reason) q = q.where('t.reason', '=', query.reason);
  if (query.target !== undefined) q = q.where('t.url', '=', query.target);
  if (query.source !== undefined) {
    const source = query.source;
    q = q.where('l.page_id', 'in', (eb) =>
      eb
        .selectFrom('scan_pages')
        .select('id')
        .where('scan_id', '=', scanId)
        .where('url', '=', source),
    );
  }
  const triage = linkTriageCondition(db, scanId, query);
  return triage ? q.where(triage) : q;
}

/** The links the query matches by the stored counts, when they can tell (state and reason only). */
function storedLinkCount(
  stored: Awaited<ReturnType<typeof storedLinkCounts>>,
  query: LinkFilter,
): number | undefined {
  if (
    !stored ||
    query.status === 'anchor' ||
    query.target !== undefined ||
    query.source ||
    (query.marks?.rows !== undefined && !query.marks.rows.exclude)
  ) {
    return undefined;
  }
  // Broken links and broken anchors are apart (an anchor is checked on a working page only).
  const anchors = query.status === 'brokenOrAnchor' && !query.reason ? query.anchorLinks : 0;
  const state = query.status === 'brokenOrAnchor' ? 'broken' : query.status;
  return (
    anchors +
    stored
      .filter((row) => state === 'all' || row.state === state)
      .filter((row) => !query.reason || row.reason === query.reason)
      .reduce((sum, row) => sum + row.links, 0)
  );
}

async function linkCount(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  const row = await linkTargetQuery(db, scanId, query)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The link tab's rows in the query's order, every column a row of the tab needs. By target URL,
 * links of one URL come by target, then link: the same order as by link alone, since targets are
 * numbered as their first link is met and only address-less links share a URL (the empty one, a
 * target each), but one the database reads from its indexes instead of sorting a URL's links.
 */
function linkRowsQuery(
  db: Kysely<Database>,
  scanId: string,
  query: LinkFilter,
  targetsFirst = false,
) {
  const sortColumn = sortColumnOf(linkSortColumns, query.sortBy, 't.url');
  return (
    linkQuery(db, scanId, query, targetsFirst)
      .select([
        't.url as targetUri',
        'p.url as sourceUri',
        't.state',
        't.status_code',
        't.reason',
        't.message',
        't.reference_count',
        'l.element',
        'l.line',
        'l.col',
        'l.target',
        'l.anchor_fragment',
        'l.anchor_state',
      ])
      .orderBy(sortColumn, query.sortOrder)
      .$if(sortColumn === 't.url', (ordered) => ordered.orderBy('t.id'))
      // Links of one target stay together; targets of equal count come by id (first met first),
      // in the sort's direction, as the unique index scan_targets_references walks them.
      .$if(sortColumn === 't.reference_count', (ordered) =>
        ordered.orderBy('t.id', query.sortOrder),
      )
      .orderBy('l.id')
  );
}

type StoredLinkRow = Awaited<
  ReturnType<ReturnType<typeof linkRowsQuery>['executeTakeFirstOrThrow']>
>;

/** The mark key (core's triageKeyOf) of a link row: its anchor when that is missing, else its URL. */
function linkRowKey(row: StoredLinkRow) {
  return row.anchor_state === 'missing'
    ? { kind: 'anchor' as const, target: row.target ?? '' }
    : { kind: 'link' as const, target: row.targetUri };
}

/** The suggestion a stored link row takes (its target URL, and its #fragment when missing). */
function suggestionOf(row: StoredLinkRow, suggestions: SuggestionTable): Suggestion | null {
  const fragment = row.anchor_state === 'missing' ? (row.anchor_fragment ?? '') : '';
  return suggestions.of({ url: row.targetUri, fragment });
}

/** A stored row as a link row, with its suggested fix and its mark (issue 27). */
function toLinkRow(
  row: StoredLinkRow,
  suggestion: Suggestion | null,
  marks?: Map<string, RowTriage>,
): LinkRow {
  return {
    // Only when the site has marks (reads without them keep their rows as they were).
    ...(marks && { triage: marks.get(triageKeyOf(linkRowKey(row))) ?? null }),
    suggestion,
    targetUri: row.anchor_state === 'missing' ? row.target : row.targetUri,
    sourceUri: row.sourceUri,
    statusDetail:
      row.anchor_state === 'missing'
        ? `Anchor #${(row.anchor_fragment ?? '').replace(/^#/, '')} not found`
        : (row.message ?? (row.state === 'ok' ? 'OK' : row.state)),
    statusCode: row.status_code,
    failureReason: row.anchor_state === 'missing' ? brokenAnchorReason : row.reason,
    errorMessage: row.state === 'ok' ? null : row.message,
    referenceCount: Number(row.reference_count),
    element: row.element,
    line: row.line,
    column: row.col,
    anchor: row.anchor_fragment,
  };
}

/** One page of the link tab and the number of rows matching its filters. */
export async function linkPage(
  db: Kysely<Database>,
  scanId: string,
  request: TriagedQuery,
  checkpoints: UrlCheckpointSource = computeUrlCheckpoints,
  knownAnchorLinks?: number,
): Promise<{ rows: LinkRow[]; total: number }> {
  const query = await linkFilterOf(db, scanId, request, knownAnchorLinks);
  const stored = await storedLinkCounts(db, scanId);
  const storedAll = storedLinkCount(stored, query);
  const storedTotal =
    storedAll === undefined ? undefined : storedAll - (await ignoredLinkRows(db, scanId, query));
  const [rows, total] = await Promise.all([
    linkPageRows(db, scanId, query, stored !== undefined, storedTotal, checkpoints),
    storedTotal ?? linkCount(db, scanId, query),
  ]);
  const [suggestions, marks] = await Promise.all([
    suggestionTable(
      db,
      scanId,
      rows.map((row) => row.targetUri),
    ),
    query.marks ? marksOf(db, query.marks.scope, rows.map(linkRowKey)) : undefined,
  ]);
  return {
    total,
    rows: rows.map((row) => toLinkRow(row, suggestionOf(row, suggestions), marks)),
  };
}

/**
 * The rows of one page of the link tab. Sorted by target (the default), a page deep in a finished
 * scan starts at its first target URL, found from the targets' reference counts: the database then
 * skips only the rows of that URL before the page instead of every row of the pages before it
 * (page 17,000 of 3.4 million links: 36 s of joining, now a walk of the targets).
 */
async function linkPageRows(
  db: Kysely<Database>,
  scanId: string,
  query: LinkFilter,
  finished: boolean,
  storedTotal: number | undefined,
  checkpoints: UrlCheckpointSource,
): Promise<StoredLinkRow[]> {
  const offset = (query.page - 1) * query.pageSize;
  const filtered = query.status !== 'all' || Boolean(query.reason);
  const targetsFirst =
    filtered && !filtersLinks(query) && storedTotal !== undefined && storedTotal <= FEW_LINKS;
  let rows = linkRowsQuery(db, scanId, query, targetsFirst);
  let skip = offset;
  const byTargetUrl = sortColumnOf(linkSortColumns, query.sortBy, 't.url') === 't.url';
  if (finished && offset > 0 && byTargetUrl && !filtersLinks(query) && !query.source) {
    const start = await targetUrlAtRow(
      db,
      scanId,
      query,
      offset,
      query.target === undefined ? await checkpoints(db, scanId, query) : [],
    );
    if (!start) return [];
    rows = rows.where('t.url', query.sortOrder === 'desc' ? '<=' : '>=', start.url);
    skip = offset - start.rowsBefore;
  }
  return rows.limit(query.pageSize).offset(skip).execute();
}

/**
 * Every CHECKPOINT_URLS-th target URL of a finished scan in the query's URL order, with the link
 * rows of the URLs before it: a deep page then sums reference counts from the nearest checkpoint
 * on, a few hundred URLs, instead of from the first URL (110,000 URLs: ~450 ms a page).
 */
export interface UrlCheckpoint {
  url: string;
  rowsBefore: number;
}
export type UrlCheckpointSource = (
  db: Kysely<Database>,
  scanId: string,
  query: LinkFilter,
) => Promise<UrlCheckpoint[]>;

const CHECKPOINT_URLS = 500;

/** The checkpoints of the query's filters (state, reason) and direction, in that direction. */
export async function computeUrlCheckpoints(
  db: Kysely<Database>,
  scanId: string,
  query: LinkFilter,
  every = CHECKPOINT_URLS,
): Promise<UrlCheckpoint[]> {
  const order = query.sortOrder === 'desc' ? sql`desc` : sql`asc`;
  const numbered = db
    .selectFrom(urlRows(db, scanId, query).as('u'))
    .select([
      'u.url',
      sql<number | string>`sum(u.rows) over (order by u.url ${order}) - u.rows`.as('rowsBefore'),
      sql<number>`row_number() over (order by u.url ${order})`.as('n'),
    ]);
  const rows = await db
    .selectFrom(numbered.as('c'))
    .select(['c.url', 'c.rowsBefore'])
    .where(sql<boolean>`(c.n - 1) % ${every} = 0`)
    .orderBy('c.url', query.sortOrder)
    .execute();
  return rows.map((row) => ({ url: row.url, rowsBefore: Number(row.rowsBefore) }));
}

/**
 * Each target URL matching the query's own filters, with its link rows (its reference counts);
 * with `from`, the URLs from that checkpoint on, and with `until`, only those before that one.
 */
function urlRows(
  db: Kysely<Database>,
  scanId: string,
  query: LinkFilter,
  from?: UrlCheckpoint,
  until?: UrlCheckpoint,
) {
  const desc = query.sortOrder === 'desc';
  let targets = matchingTargets(db, scanId, query);
  if (from) targets = targets.where('t.url', desc ? '<=' : '>=', from.url);
  if (until) targets = targets.where('t.url', desc ? '>' : '<', until.url);
  return targets
    .select(['t.url as url', (eb) => eb.fn.sum<number | string>('t.reference_count').as('rows')])
    .groupBy('t.url');
}

/**
 * The target URL the link row at `offset` (in target URL order) belongs to, and the rows of the
 * URLs before it; undefined past the last row. Every link of a target matches or none does (the
 * filters here are the target's own), so a URL's rows are its targets' reference counts; URLs are
 * summed, not targets, because targets without an address share the empty one. The sum starts at
 * the last checkpoint at or before the offset, if any, and stops before the next one.
 */
async function targetUrlAtRow(
  db: Kysely<Database>,
  scanId: string,
  query: LinkFilter,
  offset: number,
  checkpoints: UrlCheckpoint[],
): Promise<{ url: string; rowsBefore: number } | undefined> {
  const next = checkpoints.findIndex((checkpoint) => checkpoint.rowsBefore > offset);
  const from = next === -1 ? checkpoints.at(-1) : checkpoints[next - 1];
  // The row lies before the next checkpoint: the running sum covers at most CHECKPOINT_URLS
  // URLs, not every URL to the end of the list (SQLite sums a window over all the rows it is
  // given: 200-950 ms a page at 110,000 URLs under load, whatever the checkpoint).
  const until = next === -1 ? undefined : checkpoints[next];
  const base = from?.rowsBefore ?? 0;
  const order = query.sortOrder === 'desc' ? sql`desc` : sql`asc`;
  const running = db
    .selectFrom(urlRows(db, scanId, query, from, until).as('u'))
    .select([
      'u.url',
      'u.rows',
      sql<number | string>`sum(u.rows) over (order by u.url ${order})`.as('upTo'),
    ]);
  const row = await db
    .selectFrom(running.as('r'))
    .select(['r.url', 'r.rows', 'r.upTo'])
    .where('r.upTo', '>', offset - base)
    .orderBy('r.url', query.sortOrder)
    .limit(1)
    .executeTakeFirst();
  return row && { url: row.url, rowsBefore: base + Number(row.upTo) - Number(row.rows) };
}

/**
 * Every row of the link tab matching the filters, read `batchSize` at a time: the database stops
 * stepping the statement as soon as the consumer stops (a CSV export whose client has gone).
 */
export async function* linkRows(
  db: Kysely<Database>,
  scanId: string,
  request: TriagedQuery,
  batchSize: number,
): AsyncGenerator<LinkRow> {
  const query = await linkFilterOf(db, scanId, request);
  // Read before the rows' statement starts: SQLite's one connection is its until it ends.
  const suggestions = await suggestionTable(db, scanId);
  for await (const row of linkRowsQuery(db, scanId, query).stream(batchSize))
    yield toLinkRow(row, suggestionOf(row, suggestions));
}

/**
 * Every row of the link tab matching the filters, as `linkRows`, with each row's suggested fix
 * joined by the database (one primary-key lookup a row) rather than read into a table first: the
 * PDF's memory stays bounded however many links of the scan have a fix.
 */
export async function* linkRowsWithSuggestions(
  db: Kysely<Database>,
  scanId: string,
  request: TriagedQuery,
  batchSize: number,
): AsyncGenerator<LinkRow> {
  const query = await linkFilterOf(db, scanId, request);
  const rows = linkRowsQuery(db, scanId, query)
    .leftJoin('scan_suggestions as s', (join) =>
      join
        .on('s.scan_id', '=', scanId)
        .onRef('s.url', '=', 't.url')
        .on(
          sql<boolean>`s.fragment = case when l.anchor_state = 'missing' then coalesce(l.anchor_fragment, '') else '' end`,
        ),
    )
    .select(['s.kind', 's.basis', 's.suggested_url', 's.confidence', 's.hops']);
  for await (const row of rows.stream(batchSize)) yield toLinkRow(row, storedSuggestion(row));
}

/** Groups of link occurrences (by target, source page or reason) with their sizes. */
export async function linkGroups(
  db: Kysely<Database>,
  scanId: string,
  request: TriagedQuery,
  knownAnchorLinks?: number,
): Promise<{ groups: Array<{ key: string; count: number }>; total: number }> {
  const query = await linkFilterOf(db, scanId, request, knownAnchorLinks);
  // Grouping by target or reason needs links and targets only; by source page, the pages too.
  if (query.groupBy === 'source') {
    const [page, total] = await Promise.all([
      groupPage(linkQuery(db, scanId, query), 'p.url', query),
      sourceGroupCount(db, scanId, query),
    ]);
    return { groups: page, total };
  }
  if (
    query.groupBy === 'target' &&
    !filtersLinks(query) &&
    !query.source &&
    (await storedLinkCounts(db, scanId)) !== undefined
  ) {
    return targetGroups(db, scanId, query);
  }
  const column = query.groupBy === 'reason' ? 't.reason' : 't.url';
  const base = linkTargetQuery(db, scanId, query);
  const [page, total] = await Promise.all([
    groupPage(base, column, query),
    groupCount(db, base, column),
  ]);
  return { groups: page, total };
}

/**
 * Groups by target URL under filters of the targets' own (every link of a target matches or none)
 * once the scan's reference counts are written: each URL's links are its targets' reference
 * counts, read from the targets' covering index instead of grouping every matching link (5,000
 * broken targets of 3.4 million links: ~800 ms a page, now the targets alone).
 */
async function targetGroups(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  const linked = () => matchingTargets(db, scanId, query).where('t.reference_count', '>', 0);
  const [rows, total] = await Promise.all([
    pageOf(
      linked()
        .select([
          't.url as key',
          (eb) => eb.fn.sum<number | string>('t.reference_count').as('count'),
        ])
        .groupBy('t.url')
        .orderBy(query.sortBy === 'count' ? 'count' : 'key', query.sortOrder),
      query,
    ).execute(),
    counted(
      db
        .selectFrom(linked().select('t.url').distinct().as('g'))
        .select((eb) => eb.fn.countAll<number | string>().as('count')),
    ),
  ]);
  return { groups: rows.map((row) => ({ key: row.key, count: Number(row.count) })), total };
}

/**
 * The number of source pages with a matching link: the pages among the links' page ids. Counted
 * from the filtered links (the broken targets first) rather than by grouping every link by page
 * URL, which walks all the scan's pages and links (1.7 s → 50 ms at 680,000 links).
 */
async function sourceGroupCount(db: Kysely<Database>, scanId: string, query: LinkFilter) {
  const row = await db
    .selectFrom('scan_pages as p')
    .select(sql<number | string>`count(distinct p.url)`.as('count'))
    .where('p.scan_id', '=', scanId)
    .where('p.id', 'in', linkTargetQuery(db, scanId, query).select('l.page_id'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

type LinkBase = ReturnType<typeof linkQuery> | ReturnType<typeof linkTargetQuery>;

/**
 * What a group's key is read from: the column, except a reason, which a broken anchor (a working
 * target, so no reason of its own) takes from its anchor. The label is inlined, not a parameter:
 * PostgreSQL matches the grouped and selected expressions by their text.
 */
function groupKeyOf(column: 'p.url' | 't.url' | 't.reason') {
  return column === 't.reason'
    ? sql<
        string | null
      >`coalesce(t.reason, case when l.anchor_state = 'missing' then ${sql.lit(brokenAnchorReason)} end)`
    : sql<string | null>`${sql.ref(column)}`;
}

/** One page of groups of `base` by `column`, with their sizes. */
async function groupPage(
  base: LinkBase,
  column: 'p.url' | 't.url' | 't.reason',
  query: LinkFilter,
): Promise<Array<{ key: string; count: number }>> {
  const key = groupKeyOf(column).as('key');
  // The two base queries differ only in whether pages are joined; the grouping below uses raw
  // column references, so one builder type serves both.
  const rows = await (base as ReturnType<typeof linkTargetQuery>)
    .groupBy(groupKeyOf(column))
    .select([key, (eb) => eb.fn.countAll<number | string>().as('count')])
    .orderBy(query.sortBy === 'count' ? 'count' : 'key', query.sortOrder)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return rows.map((row) => ({ key: String(row.key ?? ''), count: Number(row.count) }));
}

/** The number of groups of `base` by `column` (a missing reason is a group of its own). */
async function groupCount(
  db: Kysely<Database>,
  base: ReturnType<typeof linkTargetQuery>,
  column: 't.url' | 't.reason',
): Promise<number> {
  const key = groupKeyOf(column).as('key');
  const total = await db
    .selectFrom(base.groupBy(groupKeyOf(column)).select(key).as('g'))
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(total.count);
}

const pageSortColumns = {
  uri: 'url',
  contentSize: 'total_bytes',
  htmlSize: 'html_bytes',
  depth: 'depth',
  pageRank: 'page_rank',
  statusCode: 'status_code',
} as const;

function pageBaseQuery(db: Kysely<Database>, scanId: string, query: ReportQuery, minBytes: number) {
  let base = db.selectFrom('scan_pages').where('scan_id', '=', scanId);
  if (minBytes > 0) base = base.where('total_bytes', '>', minBytes);
  if (query.category) base = base.where('content_type', '=', query.category);
  return base;
}

function pageRowsQuery(db: Kysely<Database>, scanId: string, query: ReportQuery, minBytes: number) {
  const sortColumn = sortColumnOf(pageSortColumns, query.sortBy, 'total_bytes');
  return pageBaseQuery(db, scanId, query, minBytes)
    .selectAll()
    .orderBy(sortColumn, query.sortBy ? query.sortOrder : 'desc')
    .orderBy('id');
}

type StoredPageRow = Awaited<
  ReturnType<ReturnType<typeof pageRowsQuery>['executeTakeFirstOrThrow']>
>;

function toPageRow(row: StoredPageRow): PageRow {
  return {
    uri: row.url,
    statusCode: row.status_code,
    contentSize: Number(row.total_bytes),
    htmlSize: Number(row.html_bytes),
    title: row.title,
    depth: row.depth,
    pageRank: row.page_rank,
    contents: row.contents_json ? (JSON.parse(row.contents_json) as PageRow['contents']) : [],
  };
}

/** One page of the page tab (pages over `minBytes` only, when given) and its total. */
export async function pagePage(
  db: Kysely<Database>,
  scanId: string,
  query: ReportQuery,
  minBytes = 0,
  knownTotal?: number,
): Promise<{ rows: PageRow[]; total: number }> {
  return pageAndTotal(
    pageRowsQuery(db, scanId, query, minBytes),
    query,
    toPageRow,
    knownTotal,
    () =>
      counted(
        pageBaseQuery(db, scanId, query, minBytes).select((eb) =>
          eb.fn.countAll<number | string>().as('count'),
        ),
      ),
  );
}

/** Every row of the page tab matching the filters (over `minBytes`), streamed as linkRows is. */
export async function* pageRows(
  db: Kysely<Database>,
  scanId: string,
  query: ReportQuery,
  batchSize: number,
  minBytes = 0,
): AsyncGenerator<PageRow> {
  for await (const row of pageRowsQuery(db, scanId, query, minBytes).stream(batchSize)) {
    yield toPageRow(row);
  }
}

/** The page tab's filter: its pages by content type (the `category` pageBaseQuery takes). */
export async function pageContentTypes(
  db: Kysely<Database>,
  scanId: string,
): Promise<Array<{ contentType: string; count: number }>> {
  const rows = await db
    .selectFrom('scan_pages')
    .select(['content_type', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('scan_id', '=', scanId)
    .where('content_type', 'is not', null)
    .groupBy('content_type')
    .orderBy('count', 'desc')
    .execute();
  return rows.map((row) => ({ contentType: row.content_type ?? '', count: Number(row.count) }));
}

export async function pageSizeBuckets(db: Kysely<Database>, scanId: string): Promise<number[]> {
  const mb = 1048576;
  const rows = await db
    .selectFrom('scan_pages')
    .select([
      sql<number>`case when total_bytes < ${mb} then 0 when total_bytes < ${2 * mb} then 1 when total_bytes < ${3 * mb} then 2 when total_bytes < ${4 * mb} then 3 when total_bytes < ${5 * mb} then 4 else 5 end`.as(
        'bucket',
      ),
      (eb) => eb.fn.countAll<number | string>().as('count'),
    ])
    .where('scan_id', '=', scanId)
    .groupBy('bucket')
    .execute();
  const buckets = [0, 0, 0, 0, 0, 0];
  for (const row of rows) buckets[Number(row.bucket)] = Number(row.count);
  return buckets;
}

/** Content types over unique URLs fetched: count and bytes. */
export async function fileTypes(db: Kysely<Database>, scanId: string): Promise<FileTypeRow[]> {
  const rows = await db
    .selectFrom('scan_targets')
    .select([
      sql<string>`coalesce(content_type, 'unknown')`.as('type'),
      (eb) => eb.fn.countAll<number | string>().as('count'),
      (eb) => eb.fn.sum<number | string | null>('size').as('bytes'),
    ])
    .where('scan_id', '=', scanId)
    .where('state', '=', 'ok')
    .groupBy('type')
    .orderBy('bytes', 'desc')
    .execute();
  return rows.map((row) => ({
    contentType: row.type,
    count: Number(row.count),
    totalSize: Number(row.bytes ?? 0),
  }));
}

/** The condition on findings (`r`) of a triage filter; undefined when there is none. */
function findingTriageCondition(db: Kysely<Database>, scanId: string, marks?: TriageReading) {
  if (!marks?.rows) return undefined;
  const marked = findingMarked(db, scanId, marks.scope, marks.rows.mark);
  return marks.rows.exclude ? sql<boolean>`not ${marked}` : marked;
}

function ruleBaseQuery(db: Kysely<Database>, scanId: string, query: TriagedQuery) {
  let base = db
    .selectFrom('scan_rule_violations as r')
    .innerJoin('scan_pages as p', (join) =>
      join.onRef('p.scan_id', '=', 'r.scan_id').onRef('p.id', '=', 'r.page_id'),
    )
    .where('r.scan_id', '=', scanId);
  if (query.category) base = base.where('r.category_id', '=', Number(query.category));
  if (query.ruleId) base = base.where('r.rule_id', '=', query.ruleId);
  if (query.ruleId && query.group !== undefined) base = base.where(ruleGroupKey, '=', query.group);
  const triage = findingTriageCondition(db, scanId, query.marks);
  return triage ? base.where(triage) : base;
}

/**
 * A finding's group (issue 25): its group_key, written with it (core's ruleGroupKeyOf); findings
 * of scans written before the key existed are grouped by message, else snippet.
 */
const ruleGroupKey = sql<string>`coalesce(r.group_key, r.message, r.snippet, '')`;

function ruleRowsQuery(db: Kysely<Database>, scanId: string, query: TriagedQuery) {
  const sort =
    query.sortBy === 'uri' ? 'p.url' : query.sortBy === 'line' ? 'r.line' : 'r.rule_name';
  return ruleBaseQuery(db, scanId, query)
    .select([
      'p.url',
      'r.rule_id',
      'r.rule_name',
      'r.category_id',
      'r.line',
      'r.col',
      'r.snippet',
      'r.message',
    ])
    .orderBy(sort, query.sortOrder)
    .orderBy('p.url')
    .orderBy('r.line');
}

type StoredRuleRow = Awaited<
  ReturnType<ReturnType<typeof ruleRowsQuery>['executeTakeFirstOrThrow']>
>;

function ruleRowKey(row: StoredRuleRow) {
  return { kind: 'rule' as const, target: row.url, ruleId: row.rule_id };
}

function toRuleRow(row: StoredRuleRow, marks?: Map<string, RowTriage>): RuleRow {
  return {
    ...(marks && { triage: marks.get(triageKeyOf(ruleRowKey(row))) ?? null }),
    uri: row.url,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    ruleCategoryID: row.category_id,
    ...ruleNoteOf(row.rule_id),
    line: row.line,
    column: row.col,
    snippet: row.snippet,
    message: row.message,
  };
}

/** One page of the rule tab and its total. */
export async function rulePage(
  db: Kysely<Database>,
  scanId: string,
  query: TriagedQuery,
  knownTotal?: number,
): Promise<{ rows: RuleRow[]; total: number }> {
  // Counted without the pages (every violation has its page): the violations' index alone.
  let countQuery = db.selectFrom('scan_rule_violations as r').where('r.scan_id', '=', scanId);
  if (query.category) countQuery = countQuery.where('r.category_id', '=', Number(query.category));
  if (query.ruleId) countQuery = countQuery.where('r.rule_id', '=', query.ruleId);
  if (query.ruleId && query.group !== undefined) {
    countQuery = countQuery.where(ruleGroupKey, '=', query.group);
  }
  const triage = findingTriageCondition(db, scanId, query.marks);
  if (triage) countQuery = countQuery.where(triage);
  const { rows, total } = await pageAndTotal(
    ruleRowsQuery(db, scanId, query),
    query,
    (row) => row,
    knownTotal,
    () => counted(countQuery.select((eb) => eb.fn.countAll<number | string>().as('count'))),
  );
  const marks = query.marks && (await marksOf(db, query.marks.scope, rows.map(ruleRowKey)));
  return { total, rows: rows.map((row) => toRuleRow(row, marks)) };
}

/** Every row of the rule tab matching the filters, streamed as linkRows is. */
export async function* ruleRows(
  db: Kysely<Database>,
  scanId: string,
  query: TriagedQuery,
  batchSize: number,
): AsyncGenerator<RuleRow> {
  for await (const row of ruleRowsQuery(db, scanId, query).stream(batchSize)) yield toRuleRow(row);
}

/** Every rule with findings in the scan (of one category): findings, pages and groups. */
export async function ruleCounts(
  db: Kysely<Database>,
  scanId: string,
  category?: string,
  marks?: TriageReading,
) {
  let query = db
    .selectFrom('scan_rule_violations as r')
    .select([
      'r.rule_id',
      sql<string>`max(r.rule_name)`.as('rule_name'),
      sql<number>`max(r.category_id)`.as('category_id'),
      (eb) => eb.fn.countAll<number | string>().as('findings'),
      sql<number | string>`count(distinct r.page_id)`.as('pages'),
      sql<number | string>`count(distinct ${ruleGroupKey})`.as('groups'),
    ])
    .where('r.scan_id', '=', scanId)
    .groupBy('r.rule_id');
  if (category) query = query.where('r.category_id', '=', Number(category));
  const triage = findingTriageCondition(db, scanId, marks);
  if (triage) query = query.where(triage);
  const rows = await query.execute();
  return rows
    .map((row) => ({
      ruleId: row.rule_id,
      ruleName: row.rule_name,
      ruleCategoryID: Number(row.category_id),
      ruleURL: ruleNoteOf(row.rule_id).ruleURL,
      findings: Number(row.findings),
      pages: Number(row.pages),
      groups: Number(row.groups),
    }))
    .sort((a, b) => b.findings - a.findings || a.ruleName.localeCompare(b.ruleName));
}

/** One page of a rule's groups of identical findings, largest first, and how many there are. */
export async function ruleGroupPage(
  db: Kysely<Database>,
  scanId: string,
  query: { ruleId: string; page: number; pageSize: number; marks?: TriageReading },
): Promise<{ rows: RuleGroup[]; total: number }> {
  const triage = findingTriageCondition(db, scanId, query.marks) ?? sql<boolean>`1 = 1`;
  const groups = db
    .selectFrom('scan_rule_violations as r')
    .innerJoin('scan_pages as p', (join) =>
      join.onRef('p.scan_id', '=', 'r.scan_id').onRef('p.id', '=', 'r.page_id'),
    )
    .where('r.scan_id', '=', scanId)
    .where('r.rule_id', '=', query.ruleId)
    .where(triage)
    .groupBy(ruleGroupKey);
  const [rows, count] = await Promise.all([
    groups
      .select([
        ruleGroupKey.as('group_key'),
        // Shown when every finding of the group says the same (else the key stands for them).
        sql<string | null>`case when min(r.message) = max(r.message) then max(r.message) end`.as(
          'message',
        ),
        sql<string | null>`case when min(r.snippet) = max(r.snippet) then max(r.snippet) end`.as(
          'snippet',
        ),
        (eb) => eb.fn.countAll<number | string>().as('findings'),
        sql<number | string>`count(distinct r.page_id)`.as('pages'),
        sql<string>`min(p.url)`.as('first_uri'),
      ])
      .orderBy('findings', 'desc')
      .orderBy('group_key')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    db
      .selectFrom('scan_rule_violations as r')
      .select(sql<number | string>`count(distinct ${ruleGroupKey})`.as('count'))
      .where('r.scan_id', '=', scanId)
      .where('r.rule_id', '=', query.ruleId)
      .where(triage)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.count),
    rows: rows.map((row) => ({
      key: row.group_key,
      message: row.message,
      snippet: row.snippet,
      findings: Number(row.findings),
      pages: Number(row.pages),
      firstUri: row.first_uri,
    })),
  };
}

/**
 * A rule category's failed checks: the pages × rules pairs with at least one finding (one page
 * may break one rule many times; the summary's doughnuts count each page's rule once).
 */
const failedChecks = sql<number | string>`count(distinct (r.page_id || ' ' || r.rule_id))`;

export async function ruleCategoryCounts(
  db: Kysely<Database>,
  scanId: string,
  marks?: TriageReading,
) {
  const triage = findingTriageCondition(db, scanId, marks) ?? sql<boolean>`1 = 1`;
  const rows = await db
    .selectFrom('scan_rule_violations as r')
    .select([
      'r.category_id',
      (eb) => eb.fn.countAll<number | string>().as('count'),
      sql<number | string>`count(distinct r.rule_id)`.as('rules'),
      failedChecks.as('failed_checks'),
    ])
    .where('r.scan_id', '=', scanId)
    .where(triage)
    .groupBy('r.category_id')
    .execute();
  return rows.map((row) => ({
    categoryID: row.category_id,
    count: Number(row.count),
    rules: Number(row.rules),
    failedChecks: Number(row.failed_checks),
  }));
}

function duplicateAnchorQuery(db: Kysely<Database>, scanId: string) {
  return db
    .selectFrom('scan_duplicate_anchors as d')
    .innerJoin('scan_pages as p', (join) =>
      join.onRef('p.scan_id', '=', 'd.scan_id').onRef('p.id', '=', 'd.page_id'),
    )
    .where('d.scan_id', '=', scanId);
}

function duplicateAnchorRowsQuery(db: Kysely<Database>, scanId: string, query: ReportQuery) {
  const order = query.sortOrder;
  let rows = duplicateAnchorQuery(db, scanId).select([
    'p.url',
    'd.name',
    'd.line',
    'd.col',
    'd.first_line',
    'd.first_col',
  ]);
  if (query.sortBy === 'anchor') rows = rows.orderBy('d.name', order).orderBy('p.url');
  else if (query.sortBy === 'line') rows = rows.orderBy('d.line', order).orderBy('p.url');
  else rows = rows.orderBy('p.url', order);
  return rows.orderBy('d.line').orderBy('d.col');
}

type StoredDuplicateAnchor = Awaited<
  ReturnType<ReturnType<typeof duplicateAnchorRowsQuery>['executeTakeFirstOrThrow']>
>;

function toDuplicateAnchorRow(row: StoredDuplicateAnchor): DuplicateAnchorRow {
  return {
    uri: row.url,
    anchor: row.name,
    line: row.line,
    column: row.col,
    firstLine: row.first_line,
    firstColumn: row.first_col,
  };
}

/** One page of the duplicate-anchor tab (each repeat of an id on a page) and its total. */
export async function duplicateAnchorPage(
  db: Kysely<Database>,
  scanId: string,
  query: ReportQuery,
  knownTotal?: number,
): Promise<{ rows: DuplicateAnchorRow[]; total: number }> {
  return pageAndTotal(
    duplicateAnchorRowsQuery(db, scanId, query),
    query,
    toDuplicateAnchorRow,
    knownTotal,
    () =>
      counted(
        db
          .selectFrom('scan_duplicate_anchors')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('scan_id', '=', scanId),
      ),
  );
}

/** Every row of the duplicate-anchor tab, streamed as linkRows is. */
export async function* duplicateAnchorRows(
  db: Kysely<Database>,
  scanId: string,
  query: ReportQuery,
  batchSize: number,
): AsyncGenerator<DuplicateAnchorRow> {
  for await (const row of duplicateAnchorRowsQuery(db, scanId, query).stream(batchSize)) {
    yield toDuplicateAnchorRow(row);
  }
}

/** Pages with inclusion facts (the scan checked page inclusion), filtered by the category. */
function inclusionBaseQuery(db: Kysely<Database>, scanId: string, query: ReportQuery) {
  let base = db
    .selectFrom('scan_pages')
    .where('scan_id', '=', scanId)
    .where('in_sitemap', 'is not', null);
  if (query.category === 'orphan') base = base.where('orphan', '=', true);
  else if (query.category === 'inSitemap') base = base.where('in_sitemap', '=', true);
  else if (query.category === 'notInSitemap') base = base.where('in_sitemap', '=', false);
  return base;
}

const inclusionSortColumns = {
  uri: 'url',
  incomingLinks: 'inbound_links',
  pageRank: 'page_rank',
  statusCode: 'status_code',
} as const;

/** Least linked first by default: the pages a visitor (or a search engine) is least likely to reach. */
function inclusionRowsQuery(db: Kysely<Database>, scanId: string, query: ReportQuery) {
  const sortColumn = sortColumnOf(inclusionSortColumns, query.sortBy, 'inbound_links');
  return inclusionBaseQuery(db, scanId, query)
    .select(['url', 'status_code', 'inbound_links', 'in_sitemap', 'orphan', 'page_rank'])
    .select('inclusion_json')
    .orderBy(sortColumn, query.sortOrder)
    .orderBy('id');
}

type StoredInclusion = Awaited<
  ReturnType<ReturnType<typeof inclusionRowsQuery>['executeTakeFirstOrThrow']>
>;

/** The stored event's lists (inclusion_json); a row without them reads as empty lists. */
const storedInclusionSchema = z.object({
  inboundSources: z.array(z.string()).catch([]),
  indexable: z.boolean().catch(true),
  notIndexableBecause: z.array(z.string()).catch([]),
});

function toInclusionRow(row: StoredInclusion): PageInclusionRow {
  let stored: unknown = {};
  try {
    stored = JSON.parse(row.inclusion_json ?? '{}');
  } catch {
    // An unreadable record keeps the columns' facts and empty lists.
  }
  const facts = storedInclusionSchema.parse(stored ?? {});
  return {
    uri: row.url,
    statusCode: row.status_code,
    incomingLinks: Number(row.inbound_links ?? 0),
    linkedFrom: facts.inboundSources,
    inSitemap: toBoolean(row.in_sitemap ?? false),
    orphan: toBoolean(row.orphan ?? false),
    indexable: facts.indexable,
    notIndexableBecause: facts.notIndexableBecause,
    pageRank: row.page_rank,
  };
}

/** One page of the page-inclusion tab and its total. */
export async function inclusionPage(
  db: Kysely<Database>,
  scanId: string,
  query: ReportQuery,
  knownTotal?: number,
): Promise<{ rows: PageInclusionRow[]; total: number }> {
  return pageAndTotal(
    inclusionRowsQuery(db, scanId, query),
    query,
    toInclusionRow,
    knownTotal,
    () =>
      counted(
        inclusionBaseQuery(db, scanId, query).select((eb) =>
          eb.fn.countAll<number | string>().as('count'),
        ),
      ),
  );
}

/** Every row of the page-inclusion tab matching the filter, streamed as linkRows is. */
export async function* inclusionRows(
  db: Kysely<Database>,
  scanId: string,
  query: ReportQuery,
  batchSize: number,
): AsyncGenerator<PageInclusionRow> {
  for await (const row of inclusionRowsQuery(db, scanId, query).stream(batchSize)) {
    yield toInclusionRow(row);
  }
}

/** Pages with inclusion facts: all, orphans, and in or not in the sitemap. */
export async function inclusionCounts(db: Kysely<Database>, scanId: string) {
  const row = await db
    .selectFrom('scan_pages')
    .select([
      (eb) => eb.fn.countAll<number | string>().as('pages'),
      sql<number | string | null>`sum(case when orphan then 1 else 0 end)`.as('orphans'),
      sql<number | string | null>`sum(case when in_sitemap then 1 else 0 end)`.as('listed'),
    ])
    .where('scan_id', '=', scanId)
    .where('in_sitemap', 'is not', null)
    .executeTakeFirstOrThrow();
  const pages = Number(row.pages);
  const listed = Number(row.listed ?? 0);
  return {
    orphan: Number(row.orphans ?? 0),
    inSitemap: listed,
    notInSitemap: pages - listed,
  } satisfies Record<InclusionCategory, number>;
}

/** What a site's ignore marks take out of a scan's figures (issue 27 triage). */
export interface IgnoredFigures {
  /** Broken link occurrences and URLs, by failure reason. */
  links: Array<{ reason: string; links: number; urls: number }>;
  brokenAnchors: number;
  /** Rule findings by rule category, and the pages × rules pairs they are in. */
  findings: Array<{ categoryID: number; count: number; failedChecks: number }>;
}

export async function ignoredFigures(
  db: Kysely<Database>,
  scanId: string,
  scope: TriageScope,
): Promise<IgnoredFigures> {
  const [links, anchors, findings] = await Promise.all([
    db
      .selectFrom('scan_targets as t')
      .select([
        't.reason',
        (eb) => eb.fn.countAll<number | string>().as('urls'),
        (eb) => eb.fn.sum<number | string>('t.reference_count').as('links'),
      ])
      .where('t.scan_id', '=', scanId)
      .where('t.state', '=', 'broken')
      .where('t.url', 'in', markedTargets(db, scope, 'link', 'ignored'))
      .groupBy('t.reason')
      .execute(),
    db
      .selectFrom('scan_links as l')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('l.scan_id', '=', scanId)
      .where('l.anchor_state', '=', 'missing')
      .where('l.target', 'in', markedTargets(db, scope, 'anchor', 'ignored'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('scan_rule_violations as r')
      .select([
        'r.category_id',
        (eb) => eb.fn.countAll<number | string>().as('count'),
        failedChecks.as('failed_checks'),
      ])
      .where('r.scan_id', '=', scanId)
      .where(findingMarked(db, scanId, scope, 'ignored'))
      .groupBy('r.category_id')
      .execute(),
  ]);
  return {
    links: links.map((row) => ({
      reason: row.reason ?? '',
      links: Number(row.links ?? 0),
      urls: Number(row.urls),
    })),
    brokenAnchors: Number(anchors.count),
    findings: findings.map((row) => ({
      categoryID: row.category_id,
      count: Number(row.count),
      failedChecks: Number(row.failed_checks),
    })),
  };
}
