import type { NullableTimestamp, Timestamp } from '../../db/values.js';

/** A personal read-only access token for the BI feed; the secret itself is never stored. */
export interface BiAccessTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 (hex) of the whole token. */
  token_hash: string;
  /** The token's first characters, shown in the list so the user can tell tokens apart. */
  token_prefix: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface BiTables {
  bi_access_tokens: BiAccessTokensTable;
}
