import type { ColumnType, Generated } from 'kysely';
import type { Flag, NullableTimestamp, Timestamp } from '../../db/values.js';

/** A flag a row may not have (a page of a scan without page inclusion). */
type NullableFlag = ColumnType<boolean | number | null, boolean | null, boolean | null>;

/** PostgreSQL hands bigint back as text; SQLite as a number. */
type BigCount = ColumnType<number | string, number, number>;

/** A scan: its settings, queue place, lease and running totals (SPEC §3 Scan). */
export interface ScansTable {
  id: string;
  user_id: string;
  url: string;
  /** The owner's plan priority at submit (higher runs first). */
  priority: number;
  status: number;
  scan_type: number;
  settings_json: string;
  schedule_settings_json: string | null;
  enable_schedule: Flag;
  save_schedule_only: Flag;
  source_schedule_id: string | null;
  status_code: number | null;
  total_queued_links: Generated<number>;
  total_links: Generated<number>;
  unique_links: Generated<number>;
  bad_links: Generated<number>;
  unique_bad_links: Generated<number>;
  num_pages: Generated<number>;
  duration_ms: Generated<number>;
  log_message: string | null;
  /** The engine's done summary, as JSON. */
  summary_json: string | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  /** The worker holding the scan, and until when (renewed by heartbeat). */
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  attempts: Generated<number>;
  /** A re-queued scan (lost lease, engine exception) is not started before this (issue 36). */
  not_before: ColumnType<Date | string | null, Date | null | undefined, Date | null>;
  trashed_at: NullableTimestamp;
  /** An administrator's stop of a running attempt: `requeue` or `fail` once it has stopped. */
  stop_action: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One unique URL a scan checked. state: ok, broken, unverified, skipped. */
export interface ScanTargetsTable {
  scan_id: string;
  id: number;
  url: string;
  state: string;
  reason: string | null;
  status_code: number | null;
  message: string | null;
  content_type: string | null;
  size: BigCount | null;
  internal: Flag;
  reference_count: Generated<number>;
  /** JSON: the check's final address, redirects and error code, when it has any (scan-checkpoint.ts). */
  check_detail_json: string | null;
}

export interface ScanPagesTable {
  scan_id: string;
  id: number;
  url: string;
  status_code: number | null;
  content_type: string | null;
  html_bytes: BigCount;
  total_bytes: BigCount;
  contents_json: string | null;
  depth: number;
  title: string | null;
  page_rank: number | null;
  rank_score: number | null;
  inclusion_json: string | null;
  /** The inclusion's facts the report filters and sorts by (also in inclusion_json). */
  inbound_links: number | null;
  in_sitemap: NullableFlag;
  orphan: NullableFlag;
}

/** One link occurrence: on page `page_id`, pointing at target `target_id`. */
export interface ScanLinksTable {
  scan_id: string;
  id: number;
  page_id: number;
  target_id: number;
  /** As found, with its #fragment. */
  target: string;
  element: string;
  line: number;
  col: number;
  anchor_fragment: string | null;
  anchor_state: string | null;
}

/** A running scan's page as read (the engine's PageReadRecord, as JSON): its checkpoint. */
export interface ScanPageReadsTable {
  scan_id: string;
  url: string;
  record_json: string;
}

export interface ScanCertificatesTable {
  scan_id: string;
  host: string;
  valid: Flag;
  problem: string | null;
  message: string;
  valid_to: string | null;
  days_left: number | null;
  expires_soon: Flag;
}

export interface ScanDuplicateAnchorsTable {
  scan_id: string;
  page_id: number;
  name: string;
  line: number;
  col: number;
  first_line: number;
  first_col: number;
}

export interface ScanRuleViolationsTable {
  scan_id: string;
  page_id: number;
  rule_id: string;
  rule_name: string;
  category_id: number;
  line: number;
  col: number;
  snippet: string | null;
  message: string | null;
  /** The finding's group (core's ruleGroupKeyOf); null for findings of older scans. */
  group_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A finished scan's link occurrences counted by their target's state and failure reason, written
 * with its final results: the link tab's totals and filter counts read these few rows instead of
 * counting millions of links on every open. No rows while the scan runs (counted live then).
 */
export interface ScanLinkCountsTable {
  scan_id: string;
  state: string;
  reason: string | null;
  links: BigCount;
}

/** A suggested fix for the links to `url` (and `fragment`, '' for every link to it): issue 27. */
export interface ScanSuggestionsTable {
  scan_id: string;
  url: string;
  fragment: string;
  kind: string;
  basis: string;
  suggested_url: string | null;
  confidence: number | null;
  hops: number | null;
}

export interface ScansTables {
  scans: ScansTable;
  scan_targets: ScanTargetsTable;
  scan_pages: ScanPagesTable;
  scan_links: ScanLinksTable;
  scan_certificates: ScanCertificatesTable;
  scan_duplicate_anchors: ScanDuplicateAnchorsTable;
  scan_page_reads: ScanPageReadsTable;
  scan_rule_violations: ScanRuleViolationsTable;
  scan_link_counts: ScanLinkCountsTable;
  scan_suggestions: ScanSuggestionsTable;
  scan_lease_events: ScanLeaseEventsTable;
}

/**
 * A lease that ran out (or was taken back from a dead worker) and what became of the scan:
 * `expired` for every reaped lease, `requeued` when the scan went back to the queue. Health reads
 * the last 24 h.
 */
export interface ScanLeaseEventsTable {
  id: string;
  scan_id: string;
  kind: string;
  at: Timestamp;
}
