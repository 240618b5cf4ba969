import type { Timestamp } from '../../db/values.js';

/** A word the spelling rules accept on one site of one user (issue 25), in normalised form. */
export interface SiteSpellingWordsTable {
  user_id: string;
  /** The start address of the scans it applies to, as scans store it (normalised). */
  site: string;
  word: string;
  created_at: Timestamp;
}

export interface SpellingTables {
  site_spelling_words: SiteSpellingWordsTable;
}
