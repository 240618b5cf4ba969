import type { Kysely } from 'kysely';
import { ScanStatus, type ProblemKind } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import type { ScanRow } from '../scans/scans.service.js';

/** A problem of a scan, named so the same problem has the same key in every scan of the site. */
export interface Problem {
  kind: ProblemKind;
  target: string;
  detail: string | null;
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
  const [links, anchors, certificates, rules] = await Promise.all([
    db
      .selectFrom('scan_targets')
      .select('url')
      .where('scan_id', '=', scanId)
      .where('state', '=', 'broken')
      .where('url', '!=', '')
      .execute(),
    db
      .selectFrom('scan_links')
      .select('target')
      .distinct()
      .where('scan_id', '=', scanId)
      .where('anchor_state', '=', 'missing')
      .execute(),
    db
      .selectFrom('scan_certificates')
      .select('host')
      .where('scan_id', '=', scanId)
      .where('valid', '=', false)
      .execute(),
    db
      .selectFrom('scan_rule_violations as r')
      .innerJoin('scan_pages as p', (join) =>
        join.onRef('p.scan_id', '=', 'r.scan_id').onRef('p.id', '=', 'r.page_id'),
      )
      .select(['r.rule_id', 'r.rule_name', 'p.url'])
      .distinct()
      .where('r.scan_id', '=', scanId)
      .execute(),
  ]);
  const problems = new Map<string, Problem>();
  for (const { url } of links)
    problems.set(`link ${url}`, { kind: 'link', target: url, detail: null });
  for (const { target } of anchors)
    problems.set(`anchor ${target}`, { kind: 'anchor', target, detail: null });
  for (const { host } of certificates)
    problems.set(`certificate ${host}`, { kind: 'certificate', target: host, detail: null });
  for (const rule of rules) {
    problems.set(`rule ${rule.rule_id} ${rule.url}`, {
      kind: 'rule',
      target: rule.url,
      detail: rule.rule_name,
    });
  }
  return problems;
}
