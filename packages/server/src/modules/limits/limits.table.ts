import type { Timestamp } from '../../db/values.js';

/** Requests of one key (route and client address) in its current window. */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  window_ends_at: Timestamp;
}

/**
 * The places of one gate (`report` reads, `export` downloads) a reader holds: place 0 … perUser−1,
 * each held by one read until it gives it back or its lease runs out (a process that died).
 */
export interface HeavyReadPlacesTable {
  gate: string;
  reader: string;
  place: number;
  holder: string;
  expires_at: Timestamp;
}

export interface LimitsTables {
  rate_limit_hits: RateLimitHitsTable;
  heavy_read_places: HeavyReadPlacesTable;
}
