import type { Timestamp } from '../../db/values.js';

/** One administrator action: who, when, what, and the target's state before and after (JSON). */
export interface AdminAuditTable {
  id: string;
  admin_id: string;
  admin_email: string;
  /** adminActions in core (`scan.requeue`, `user.disable` …). */
  action: string;
  /** `scan`, `user` or `voucher`. */
  target_type: string;
  target_id: string;
  before_json: string | null;
  after_json: string | null;
  created_at: Timestamp;
}

export interface AdminTables {
  admin_audit: AdminAuditTable;
}
