import type { Timestamp } from '../../db/values.js';

/** A user's mark on one problem of a site (issue 27 triage); see core's triage.ts. */
export interface TriageMarksTable {
  user_id: string;
  /** The start address of the scans it applies to, as scans store it (normalised). */
  site: string;
  /** link | anchor | rule */
  kind: string;
  /** The broken URL, the link with its #fragment, or the page of a rule finding. */
  target: string;
  /** The rule's id for a rule finding, '' otherwise. */
  rule_id: string;
  /** The key of kind, rule id and target (triage.repository's targetHash). */
  target_hash: string;
  /** ignored | willFix */
  mark: string;
  note: string;
  marked_at: Timestamp;
}

export interface TriageTables {
  triage_marks: TriageMarksTable;
}
