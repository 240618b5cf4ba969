import type { Kysely } from 'kysely';
import { ScanStatus, type ProblemKind } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { ScanRow } from '../scans/scans.service.js';

/** A problem of a scan, named so the same problem has the same key in every scan of the site. */
export interface Problem {
  kind: ProblemKind;
  target: string;
  detail: string | null;
  /** The rule's id of a rule finding (what a triage mark names); null otherwise. */
  ruleId: string | null;
}

/** Statuses whose results are a whole scan's (cancelled and failed scans are not compared). */
const comparable = [ScanStatus.Complete, ScanStatus.Timeout, ScanStatus.OverMaxLinks];

/**
 * The owner's finished scans of the same site before `scan`, newest first, at most `limit`: of
 * the same schedule when it came from one, else of the same start URL and scope.
 */
export async function earlierScansOfSite(
  db: Kysely<Database>,
  scan: ScanRow,
  limit: number,
): Promise<Array<{ id: string; completedAt: Date | string | null }>> {
  let query = db
    .selectFrom('scans')
    .select(['id', 'completed_at'])
    .where('user_id', '=', scan.user_id)
    .where('id', '!=', scan.id)
    .where('trashed_at', 'is', null)
    .where('status', 'in', comparable)
    .where('created_at', '<', scan.created_at);
  query =
    scan.source_schedule_id !== null
      ? query.where('source_schedule_id', '=', scan.source_schedule_id)
      : query.where('url', '=', scan.url).where('scan_type', '=', scan.scan_type);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, completedAt: row.completed_at }));
}

/** Every problem of a scan by its key: broken URLs, broken anchors, bad certificates, findings. */
export async function problemsOf(
  db: Kysely<Database>,
  scanId: string,
): Promise<Map<string, Problem>> {
  return (await problemsOfScans(db, [scanId])).get(scanId) ?? new Map<string, Problem>();
}

/** The problems of several scans at once (a schedule's history), by scan id then key. */
export async function problemsOfScans(
  db: Kysely<Database>,
  scanIds: readonly string[],
): Promise<Map<string, Map<string, Problem>>> {
  const byScan = new Map<string, Map<string, Problem>>(
    scanIds.map((id) => [id, new Map<string, Problem>()]),
  );
  if (scanIds.length === 0) return byScan;
  const ids = [...scanIds];
  const [links, anchors, certificates, rules] = await Promise.all([
    db
      .selectFrom('scan_targets')
      .select(['scan_id', 'url'])
      .where('scan_id', 'in', ids)
      .where('state', '=', 'broken')
      .where('url', '!=', '')
      .execute(),
    db
      .selectFrom('scan_links')
      .select(['scan_id', 'target'])
      .distinct()
      .where('scan_id', 'in', ids)
      .where('anchor_state', '=', 'missing')
      .execute(),
    db
      .selectFrom('scan_certificates')
      .select(['scan_id', 'host'])
      .where('scan_id', 'in', ids)
      .where('valid', '=', false)
      .execute(),
    db
      .selectFrom('scan_rule_violations as r')
      .innerJoin('scan_pages as p', (join) =>
        join.onRef('p.scan_id', '=', 'r.scan_id').onRef('p.id', '=', 'r.page_id'),
      )
      .select(['r.scan_id', 'r.rule_id', 'r.rule_name', 'p.url'])
      .distinct()
      .where('r.scan_id', 'in', ids)
      .execute(),
  ]);
  const add = (scanId: string, key: string, problem: Problem) =>
    byScan.get(scanId)?.set(key, problem);
  for (const { scan_id, url } of links)
    add(scan_id, `link ${url}`, { kind: 'link', target: url, detail: null, ruleId: null });
  for (const { scan_id, target } of anchors)
    add(scan_id, `anchor ${target}`, { kind: 'anchor', target, detail: null, ruleId: null });
  for (const { scan_id, host } of certificates)
    add(scan_id, `certificate ${host}`, {
      kind: 'certificate',
      target: host,
      detail: null,
      ruleId: null,
    });
  for (const rule of rules) {
    add(rule.scan_id, `rule ${rule.rule_id} ${rule.url}`, {
      kind: 'rule',
      target: rule.url,
      detail: rule.rule_name,
      ruleId: rule.rule_id,
    });
  }
  return byScan;
}

/** Lookups per statement when looking for problems' places in a scan. */
const PLACES_PER_QUERY = 500;

/**
 * The keys of `gone` problems (an earlier scan's, not in `scanId`) whose place is still in the
 * scan: the link's URL still checked, the anchor's link still on a page, the certificate's host
 * still met, the finding's page still read. Such a problem was fixed; the others were removed.
 */
export async function problemsStillPlaced(
  db: Kysely<Database>,
  scanId: string,
  gone: ReadonlyArray<[string, Problem]>,
): Promise<Set<string>> {
  const placed = new Set<string>();
  const lookups = {
    link: (values: string[]) =>
      db
        .selectFrom('scan_targets')
        .select('url as place')
        .where('scan_id', '=', scanId)
        .where('url', 'in', values),
    anchor: (values: string[]) =>
      db
        .selectFrom('scan_links')
        .select('target as place')
        .distinct()
        .where('scan_id', '=', scanId)
        .where('target', 'in', values),
    certificate: (values: string[]) =>
      db
        .selectFrom('scan_certificates')
        .select('host as place')
        .where('scan_id', '=', scanId)
        .where('host', 'in', values),
    rule: (values: string[]) =>
      db
        .selectFrom('scan_pages')
        .select('url as place')
        .where('scan_id', '=', scanId)
        .where('url', 'in', values),
  } satisfies Record<ProblemKind, unknown>;
  for (const kind of Object.keys(lookups) as ProblemKind[]) {
    const ofKind = gone.filter(([, problem]) => problem.kind === kind);
    const places = [...new Set(ofKind.map(([, problem]) => problem.target))];
    const found = new Set<string>();
    for (let start = 0; start < places.length; start += PLACES_PER_QUERY) {
      const rows = await lookups[kind](places.slice(start, start + PLACES_PER_QUERY)).execute();
      for (const row of rows) found.add(String(row.place));
    }
    for (const [key, problem] of ofKind) if (found.has(problem.target)) placed.add(key);
  }
  return placed;
}

/** Of `ids`, the scans trashed or deleted since (what stored changes were compared with). */
export async function goneScans(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('scans')
    .select('id')
    .where('id', 'in', [...ids])
    .where('trashed_at', 'is', null)
    .execute();
  const present = new Set(rows.map((row) => row.id));
  return new Set(ids.filter((id) => !present.has(id)));
}
