import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { BiEntitySet } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { FeedProperty } from './odata-model.js';
import type { FilterExpression, Literal, OrderBy } from './odata-query.js';

/** Access tokens and the feed's reads. All SQL of the BI module is here, parameterised. */

export interface StoredBiToken {
  id: string;
  user_id: string;
  name: string;
  token_prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

export async function insertToken(
  db: Kysely<Database>,
  token: {
    id: string;
    userId: string;
    name: string;
    hash: string;
    prefix: string;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('bi_access_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      name: token.name,
      token_hash: token.hash,
      token_prefix: token.prefix,
      created_at: token.createdAt,
      last_used_at: null,
    })
    .execute();
}

const tokenColumns = [
  'id',
  'user_id',
  'name',
  'token_prefix',
  'created_at',
  'last_used_at',
] as const;

export function listTokens(db: Kysely<Database>, userId: string): Promise<StoredBiToken[]> {
  return db
    .selectFrom('bi_access_tokens')
    .select(tokenColumns)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function countTokens(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('bi_access_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes the user's token; false when the user has no such token. */
export async function deleteToken(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('bi_access_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function findTokenByHash(
  db: Kysely<Database>,
  hash: string,
): Promise<StoredBiToken | undefined> {
  return db
    .selectFrom('bi_access_tokens')
    .select(tokenColumns)
    .where('token_hash', '=', hash)
    .executeTakeFirst();
}

/** Records a use, at most once per `since` (a feed read is many requests; one write will do). */
export async function touchToken(
  db: Kysely<Database>,
  id: string,
  now: Date,
  since: Date,
): Promise<void> {
  await db
    .updateTable('bi_access_tokens')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}

/**
 * Each entity set as a derived table `e` whose columns carry the feed's property names: the
 * filter, order and paging below then speak only of `e.<property>`. SQLite and PostgreSQL both
 * fold such a plain sub-select into the outer query, so the (scan_id, …) indexes still serve it.
 */
function entityTable(db: Kysely<Database>, set: BiEntitySet, scanId: string) {
  switch (set) {
    case 'Links':
      // Left joins (every link has its target and page, so the rows are the same) keep the links
      // the driving table: SQLite otherwise walked the targets and sorted every link for each page
      // in key order (220 ms a page at 20,000 links); this way a page is a walk of the links' key.
      return db
        .selectFrom('scan_links as l')
        .leftJoin('scan_targets as t', (join) =>
          join.onRef('t.scan_id', '=', 'l.scan_id').onRef('t.id', '=', 'l.target_id'),
        )
        .leftJoin('scan_pages as p', (join) =>
          join.onRef('p.scan_id', '=', 'l.scan_id').onRef('p.id', '=', 'l.page_id'),
        )
        .where('l.scan_id', '=', scanId)
        .select([
          'l.id as id',
          'p.url as sourceUri',
          't.url as targetUri',
          // The link tab's status text (reports' toLinkRow), computed here so it can be filtered.
          sql<string>`case when l.anchor_state = 'missing' then 'Anchor #' || ltrim(coalesce(l.anchor_fragment, ''), '#') || ' not found' when t.message is not null then t.message when t.state = 'ok' then 'OK' else t.state end`.as(
            'statusDetail',
          ),
          't.status_code as statusCode',
          't.state as state',
          't.reason as failureReason',
          sql<string | null>`case when t.state = 'ok' then null else t.message end`.as(
            'errorMessage',
          ),
          't.reference_count as referenceCount',
          't.internal as internal',
          't.content_type as contentType',
          't.size as size',
          'l.element as element',
          'l.line as line',
          'l.col as column',
          'l.anchor_fragment as anchor',
          'l.anchor_state as anchorState',
        ]);
    case 'Pages':
      return db
        .selectFrom('scan_pages as p')
        .where('p.scan_id', '=', scanId)
        .select([
          'p.id as id',
          'p.url as uri',
          'p.status_code as statusCode',
          'p.content_type as contentType',
          'p.html_bytes as htmlSize',
          'p.total_bytes as contentSize',
          'p.depth as depth',
          'p.title as title',
          'p.page_rank as pageRank',
        ]);
    case 'Rules':
      return db
        .selectFrom('scan_rule_violations as r')
        .innerJoin('scan_pages as p', (join) =>
          join.onRef('p.scan_id', '=', 'r.scan_id').onRef('p.id', '=', 'r.page_id'),
        )
        .where('r.scan_id', '=', scanId)
        .select([
          'r.page_id as pageId',
          'p.url as uri',
          'r.rule_id as ruleId',
          'r.rule_name as ruleName',
          'r.category_id as ruleCategoryID',
          // SPEC §3's category names (core ruleCategoryLabel), here so they can be filtered.
          sql<string>`case r.category_id when 1 then 'Web performance' when 2 then 'Spellcheck' when 3 then 'Valid HTML' when 4 then 'SEO' when 5 then 'User Experience' else 'Other' end`.as(
            'category',
          ),
          'r.line as line',
          'r.col as column',
          'r.snippet as snippet',
          'r.message as ruleNote',
        ]);
    case 'FileTypes':
      // The report's file-type tab: unique URLs fetched, by content type.
      return db
        .selectFrom('scan_targets')
        .where('scan_id', '=', scanId)
        .where('state', '=', 'ok')
        .groupBy(sql`coalesce(content_type, 'unknown')`)
        .select([
          sql<string>`coalesce(content_type, 'unknown')`.as('contentType'),
          (eb) => eb.fn.countAll<number | string>().as('count'),
          sql<number | string>`coalesce(sum(size), 0)`.as('totalSize'),
        ]);
  }
}

function column(property: FeedProperty): RawBuilder<unknown> {
  return sql`${sql.ref(`e.${property.name}`)}`;
}

/** The value bound for a literal: booleans as the dialect stores flags (the adapters map them). */
function bound(value: Literal): RawBuilder<unknown> {
  return sql`${value}`;
}

const sqlOperators = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/**
 * The filter tree as one SQL condition. Values are always bound parameters; names come only from
 * the model's property list. Text matching is case-sensitive on both databases, as OData's
 * functions are: `replace`/`substr`/`length` behave alike on SQLite and PostgreSQL (LIKE does not).
 */
export function filterCondition(expression: FilterExpression): RawBuilder<SqlBool> {
  switch (expression.kind) {
    case 'and':
    case 'or': {
      const joiner = expression.kind === 'and' ? sql` and ` : sql` or `;
      return sql<SqlBool>`(${filterCondition(expression.left)}${joiner}${filterCondition(expression.right)})`;
    }
    case 'not':
      return sql<SqlBool>`(not ${filterCondition(expression.operand)})`;
    case 'compare': {
      const target = column(expression.property);
      if (expression.value === null) {
        return expression.operator === 'eq'
          ? sql<SqlBool>`(${target} is null)`
          : sql<SqlBool>`(${target} is not null)`;
      }
      const operator = sql.raw(sqlOperators[expression.operator]);
      // OData: `x ne 5` is true where x is null (null is not 5); SQL would say unknown.
      return expression.operator === 'ne'
        ? sql<SqlBool>`(${target} is null or ${target} <> ${bound(expression.value)})`
        : sql<SqlBool>`(${target} ${operator} ${bound(expression.value)})`;
    }
    case 'in': {
      const target = column(expression.property);
      const values = expression.values.filter((value) => value !== null);
      const parts: Array<RawBuilder<SqlBool>> = [];
      if (values.length > 0) {
        parts.push(sql<SqlBool>`${target} in (${sql.join(values.map(bound))})`);
      }
      if (values.length < expression.values.length) parts.push(sql<SqlBool>`${target} is null`);
      return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
    }
    case 'function': {
      const target = column(expression.property);
      const value = expression.value;
      if (expression.name === 'contains') {
        return value === ''
          ? sql<SqlBool>`(${target} is not null)`
          : sql<SqlBool>`(replace(${target}, ${value}, '') <> ${target})`;
      }
      if (expression.name === 'startswith') {
        return sql<SqlBool>`(substr(${target}, 1, ${value.length}) = ${value})`;
      }
      return sql<SqlBool>`(length(${target}) >= ${value.length} and substr(${target}, length(${target}) - ${value.length - 1}) = ${value})`;
    }
  }
}

export interface FeedRead {
  set: BiEntitySet;
  scanId: string;
  /** The properties answered (the keys are read too, for a stable order). */
  properties: FeedProperty[];
  keys: FeedProperty[];
  filter: FilterExpression | undefined;
  orderBy: OrderBy[];
  /** Rows in key order after this key only (keyset paging: no rows skipped one by one). */
  afterKey?: number | undefined;
  offset: number;
  limit: number;
}

function filteredEntities(db: Kysely<Database>, read: Pick<FeedRead, 'set' | 'scanId' | 'filter'>) {
  // One row type for the four sets: the outer query names columns only through the model.
  const entities = sql<Record<string, unknown>>`(${entityTable(db, read.set, read.scanId)})`;
  const base = db.selectFrom(entities.as('e'));
  return read.filter ? base.where(filterCondition(read.filter)) : base;
}

/**
 * One page of an entity set, streamed from the database `batch` rows at a time: a page never
 * sits in memory whole, and the statement stops when the client goes away.
 */
export function feedRows(
  db: Kysely<Database>,
  read: FeedRead,
  batch: number,
): AsyncIterable<Record<string, unknown>> {
  const wanted = new Map<string, FeedProperty>();
  for (const property of [...read.properties, ...read.keys]) wanted.set(property.name, property);
  let query = filteredEntities(db, read);
  const firstKey = read.keys[0];
  if (read.afterKey !== undefined && firstKey) {
    query = query.where(sql<SqlBool>`${column(firstKey)} > ${read.afterKey}`);
  }
  let ordered = query.select(
    [...wanted.values()].map((property) => column(property).as(property.name)),
  );
  const orderedBy = new Set<string>();
  for (const order of read.orderBy) {
    ordered = ordered.orderBy(orderExpression(order.property, order.direction));
    orderedBy.add(order.property.name);
  }
  // Then the key, so every page continues exactly where the last one ended.
  for (const key of read.keys) {
    if (!orderedBy.has(key.name)) ordered = ordered.orderBy(orderExpression(key, 'asc'));
  }
  return ordered.limit(read.limit).offset(read.offset).stream(batch) as AsyncIterable<
    Record<string, unknown>
  >;
}

/**
 * Nulls first ascending and last descending on both databases (PostgreSQL's default differs). A
 * property that is never null is ordered plainly, so an index can give the order (the key).
 */
function orderExpression(property: FeedProperty, direction: 'asc' | 'desc'): Expression<unknown> {
  if (!property.nullable) {
    return direction === 'asc' ? sql`${column(property)} asc` : sql`${column(property)} desc`;
  }
  return direction === 'asc'
    ? sql`${column(property)} is not null, ${column(property)} asc`
    : sql`${column(property)} is null, ${column(property)} desc`;
}

/** The number of entities the filter matches ($count). */
export async function feedCount(
  db: Kysely<Database>,
  read: Pick<FeedRead, 'set' | 'scanId' | 'filter'>,
): Promise<number> {
  const row = await filteredEntities(db, read)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
