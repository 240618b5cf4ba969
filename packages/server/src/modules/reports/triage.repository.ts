import { createHash } from 'node:crypto';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import {
  maxTriageMarks,
  triageKeyOf,
  type TriageKind,
  type TriageMark,
  type TriageMarkName,
  type TriageTarget,
} from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';

/**
 * Whose marks a scan's report reads: its owner's, on the scan's start address. An admin reading
 * another user's report sees the owner's marks.
 */
export interface TriageScope {
  userId: string;
  site: string;
}

/** A mark's key within its site: sha256 of kind, rule id and target (targets run to 4000 chars). */
export function targetHash(target: {
  kind: string;
  target: string;
  ruleId?: string | null;
}): string {
  return createHash('sha256')
    .update(`${target.kind}\n${target.ruleId ?? ''}\n${target.target}`)
    .digest('hex');
}

export function triageScopeOf(scan: { user_id: string; url: string }): TriageScope {
  return { userId: scan.user_id, site: scan.url };
}

/** The site's marks, newest first. */
export async function siteMarks(
  db: Kysely<Database>,
  scope: TriageScope,
  limit = maxTriageMarks,
): Promise<TriageMark[]> {
  const rows = await db
    .selectFrom('triage_marks')
    .select(['kind', 'target', 'rule_id', 'mark', 'note', 'marked_at'])
    .where('user_id', '=', scope.userId)
    .where('site', '=', scope.site)
    .orderBy('marked_at', 'desc')
    .orderBy('target')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    kind: row.kind as TriageKind,
    target: row.target,
    ruleId: row.rule_id === '' ? null : row.rule_id,
    mark: row.mark as TriageMarkName,
    note: row.note,
    markedAt: toDate(row.marked_at).toISOString(),
  }));
}

/**
 * How many marks of each kind and mark the site has (reads skip the triage filters at 0), and a
 * version that changes with every change of them (kept reads computed with marks are keyed by it).
 */
export async function markCounts(
  db: Kysely<Database>,
  scope: TriageScope,
): Promise<{ counts: Map<string, number>; version: string }> {
  const rows = await db
    .selectFrom('triage_marks')
    .select([
      'kind',
      'mark',
      (eb) => eb.fn.countAll<number | string>().as('count'),
      (eb) => eb.fn.max('marked_at').as('latest'),
    ])
    .where('user_id', '=', scope.userId)
    .where('site', '=', scope.site)
    .groupBy(['kind', 'mark'])
    .execute();
  const counts = new Map(rows.map((row) => [`${row.kind} ${row.mark}`, Number(row.count)]));
  const latest = rows.map((row) => toDate(row.latest).getTime()).sort((a, b) => b - a)[0] ?? 0;
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return { counts, version: `${total}@${latest}` };
}

export async function setMark(
  db: Kysely<Database>,
  scope: TriageScope,
  mark: TriageTarget & { mark: TriageMarkName; note: string; at: Date },
): Promise<void> {
  const values = {
    user_id: scope.userId,
    site: scope.site,
    kind: mark.kind,
    target: mark.target,
    rule_id: mark.ruleId ?? '',
    target_hash: targetHash(mark),
    mark: mark.mark,
    note: mark.note,
    marked_at: mark.at,
  };
  await db
    .insertInto('triage_marks')
    .values(values)
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'site', 'target_hash'])
        .doUpdateSet({ mark: mark.mark, note: mark.note, marked_at: mark.at }),
    )
    .execute();
}

/** Removes a mark; false when there was none. */
export async function removeMark(
  db: Kysely<Database>,
  scope: TriageScope,
  target: TriageTarget,
): Promise<boolean> {
  const result = await db
    .deleteFrom('triage_marks')
    .where('user_id', '=', scope.userId)
    .where('site', '=', scope.site)
    .where('target_hash', '=', targetHash(target))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function markExists(
  db: Kysely<Database>,
  scope: TriageScope,
  target: TriageTarget,
): Promise<boolean> {
  const row = await db
    .selectFrom('triage_marks')
    .select('mark')
    .where('user_id', '=', scope.userId)
    .where('site', '=', scope.site)
    .where('target_hash', '=', targetHash(target))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the scan has the problem a mark would name (a broken URL, anchor or finding). */
export async function scanHasProblem(
  db: Kysely<Database>,
  scanId: string,
  target: TriageTarget,
): Promise<boolean> {
  if (target.kind === 'link') {
    const row = await db
      .selectFrom('scan_targets')
      .select('id')
      .where('scan_id', '=', scanId)
      .where('url', '=', target.target)
      .where('state', '=', 'broken')
      .executeTakeFirst();
    return row !== undefined;
  }
  if (target.kind === 'anchor') {
    const row = await db
      .selectFrom('scan_links')
      .select('id')
      .where('scan_id', '=', scanId)
      .where('anchor_state', '=', 'missing')
      .where('target', '=', target.target)
      .executeTakeFirst();
    return row !== undefined;
  }
  const row = await db
    .selectFrom('scan_rule_violations as r')
    .innerJoin('scan_pages as p', (join) =>
      join.onRef('p.scan_id', '=', 'r.scan_id').onRef('p.id', '=', 'r.page_id'),
    )
    .select('r.rule_id')
    .where('r.scan_id', '=', scanId)
    .where('p.url', '=', target.target)
    .where('r.rule_id', '=', target.ruleId ?? '')
    .executeTakeFirst();
  return row !== undefined;
}

/** The targets of the scope's marks of one kind and mark, as a subquery. */
export function markedTargets(
  db: Kysely<Database>,
  scope: TriageScope,
  kind: TriageKind,
  mark: TriageMarkName,
) {
  return db
    .selectFrom('triage_marks')
    .select('target')
    .where('user_id', '=', scope.userId)
    .where('site', '=', scope.site)
    .where('kind', '=', kind)
    .where('mark', '=', mark);
}

/**
 * Whether a finding (`r`, a row of scan_rule_violations) is of a (rule, page) the scope marked
 * so. The marked pairs are few: read once (marks by key, their pages by URL) as "rule:page" keys
 * the findings are then looked up in, not a lookup per finding.
 */
export function findingMarked(
  db: Kysely<Database>,
  scanId: string,
  scope: TriageScope,
  mark: TriageMarkName,
): Expression<SqlBool> {
  const marked = db
    .selectFrom('triage_marks as m')
    .innerJoin('scan_pages as mp', (join) =>
      join.on('mp.scan_id', '=', scanId).onRef('mp.url', '=', 'm.target'),
    )
    .select(sql<string>`m.rule_id || ':' || mp.id`.as('key'))
    .where('m.user_id', '=', scope.userId)
    .where('m.site', '=', scope.site)
    .where('m.kind', '=', 'rule')
    .where('m.mark', '=', mark);
  // Kysely puts the subquery in parentheses itself.
  return sql<SqlBool>`(r.rule_id || ':' || r.page_id) in ${marked}`;
}

/** The marks of a page of rows, by triageKeyOf's key. */
export async function marksOf(
  db: Kysely<Database>,
  scope: TriageScope,
  targets: ReadonlyArray<{ kind: TriageKind; target: string; ruleId?: string | null }>,
): Promise<Map<string, { mark: TriageMarkName; note: string; markedAt: string }>> {
  const marks = new Map<string, { mark: TriageMarkName; note: string; markedAt: string }>();
  const urls = [...new Set(targets.map((target) => target.target))];
  if (urls.length === 0) return marks;
  const rows = await db
    .selectFrom('triage_marks')
    .select(['kind', 'target', 'rule_id', 'mark', 'note', 'marked_at'])
    .where('user_id', '=', scope.userId)
    .where('site', '=', scope.site)
    .where('target', 'in', urls)
    .execute();
  for (const row of rows) {
    const key = triageKeyOf({
      kind: row.kind as TriageKind,
      target: row.target,
      ruleId: row.rule_id,
    });
    marks.set(key, {
      mark: row.mark as TriageMarkName,
      note: row.note,
      markedAt: toDate(row.marked_at).toISOString(),
    });
  }
  return marks;
}
