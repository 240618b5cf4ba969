import { FailureReason, failureReasons } from '@linkaudit/core';
import type { Kysely } from 'kysely';
import type {
  LinkCheck,
  OkWarning,
  PageReadRecord,
  RedirectHop,
  ScanResume,
  UnverifiedCause,
} from '@linkaudit/engine';
import type { Database } from '../../db/schema.js';
import { checkedTargets, pageReads } from './scans.repository.js';

/**
 * A running scan's checkpoint is the target rows it has written (each holds one URL's check)
 * and the pages it has read (scan_page_reads: each page's links, anchors and facts). A scan
 * resumed after a crash gives both back to the engine (EngineOptions.resume), which then fetches
 * none of those URLs again, pages included, unless it must read them (docs/decisions.md).
 */

/** The checks and pages a scan's earlier run wrote, for its next run to resume from. */
export async function scanResumeOf(db: Kysely<Database>, scanId: string): Promise<ScanResume> {
  const checked: ScanResume['checked'] = [];
  for (const row of await checkedTargets(db, scanId)) {
    const check = checkOfTarget(row);
    if (check) checked.push({ url: row.url, check });
  }
  const pages = (await pageReads(db, scanId)).map(
    (row) => JSON.parse(row.record_json) as PageReadRecord,
  );
  return { checked, pages };
}

/** What of a check the target row's other columns do not hold. */
interface CheckDetail {
  finalUrl?: string;
  redirects?: RedirectHop[];
  errorCode?: string;
}

/** The target row's check_detail_json: null when the check has nothing beyond its columns. */
export function checkDetailJson(url: string, check: LinkCheck): string | null {
  if (check.state === 'skipped') return null;
  const detail: CheckDetail = {};
  if (check.state === 'ok' && check.finalUrl !== url) detail.finalUrl = check.finalUrl;
  if (check.redirects.length > 0) detail.redirects = check.redirects;
  if (check.state === 'broken' && check.errorCode !== undefined) detail.errorCode = check.errorCode;
  return Object.keys(detail).length > 0 ? JSON.stringify(detail) : null;
}

/** A target row as the checkpoint reads it. */
export interface CheckedTargetRow {
  url: string;
  state: string;
  reason: string | null;
  status_code: number | null;
  message: string | null;
  content_type: string | null;
  size: number | string | bigint | null;
  check_detail_json: string | null;
}

/**
 * The check a target row records, or undefined when it is none the engine should reuse: a
 * skipped link (the earlier run did not check it) or our own failure (checked again).
 */
export function checkOfTarget(row: CheckedTargetRow): LinkCheck | undefined {
  const detail = (row.check_detail_json ? JSON.parse(row.check_detail_json) : {}) as CheckDetail;
  const redirects = detail.redirects ?? [];
  const statusCode = row.status_code ?? undefined;
  switch (row.state) {
    case 'ok':
      return {
        state: 'ok',
        statusCode: statusCode ?? 0,
        finalUrl: detail.finalUrl ?? row.url,
        redirects,
        ...(row.content_type !== null ? { contentType: row.content_type } : {}),
        ...(row.size !== null ? { size: Number(row.size) } : {}),
        ...(isOkWarning(row.reason) ? { warning: row.reason } : {}),
      };
    case 'broken': {
      const reason = failureReasons.find((known) => known === row.reason);
      if (reason === undefined || reason === FailureReason.EngineException) return undefined;
      return {
        state: 'broken',
        reason,
        ...(statusCode !== undefined ? { statusCode } : {}),
        message: row.message ?? '',
        redirects,
        ...(detail.errorCode !== undefined ? { errorCode: detail.errorCode } : {}),
      };
    }
    case 'unverified':
      return {
        state: 'unverified',
        // (Rows written before issue 35 had no cause: bot protection was the only one.)
        cause: isUnverifiedCause(row.reason) ? row.reason : 'bot-protection',
        ...(statusCode !== undefined ? { statusCode } : {}),
        message: row.message ?? '',
        redirects,
      };
    default:
      return undefined;
  }
}

const unverifiedCauses: ReadonlySet<string> = new Set<UnverifiedCause>([
  'bot-protection',
  'rate-limited',
  'needs-sign-in',
  'host-too-slow',
]);
const okWarnings: ReadonlySet<string> = new Set<OkWarning>(['soft-404', 'login-wall']);

function isUnverifiedCause(reason: string | null): reason is UnverifiedCause {
  return reason !== null && unverifiedCauses.has(reason);
}

function isOkWarning(reason: string | null): reason is OkWarning {
  return reason !== null && okWarnings.has(reason);
}
