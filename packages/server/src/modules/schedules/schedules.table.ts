import type { Generated } from 'kysely';
import type { Flag, NullableTimestamp, Timestamp } from '../../db/values.js';

/**
 * A scheduled scan (SPEC §3): what to scan, when (its settings, as chosen, and the cron
 * expression in UTC), and its clock: `next_run_at` is the one value the scheduler processes race
 * for — whoever moves it on fires that run.
 */
export interface SchedulesTable {
  id: string;
  user_id: string;
  url: string;
  /** 6 active, 7 paused. */
  status: number;
  scan_type: number;
  settings_json: string;
  schedule_settings_json: string;
  cron_expression: string;
  notify_on_change: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Null while paused. */
  next_run_at: NullableTimestamp;
  last_run_at: NullableTimestamp;
  last_scan_id: string | null;
  run_count: Generated<number>;
  skipped_runs: Generated<number>;
  last_skipped_at: NullableTimestamp;
  last_skip_reason: string | null;
}

export interface SchedulesTables {
  schedules: SchedulesTable;
}
