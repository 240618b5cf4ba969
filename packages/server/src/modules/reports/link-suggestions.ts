import type { Kysely } from 'kysely';
import { suggestionSchema, type Suggestion } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';

/** Which suggestion a link row takes: its target URL, and its #fragment when that is missing. */
export interface SuggestionKey {
  url: string;
  /** '' unless the link's #fragment was not found on its page (a closest anchor is per fragment). */
  fragment: string;
}

/** A scan's suggested fixes (issue 27) by URL and fragment. */
export class SuggestionTable {
  constructor(private readonly byKey: ReadonlyMap<string, Suggestion>) {}

  of(key: SuggestionKey): Suggestion | null {
    return this.byKey.get(keyOf(key)) ?? null;
  }
}

/** URLs per lookup: well under both dialects' bound-parameter limits. */
const urlsPerLookup = 500;

/**
 * The suggested fixes of a scan, of only `urls` when given (a page of link rows, at most a
 * thousand). Looked up apart from the rows, so the rows' own query (and its tuned plans) stays as
 * it was; an export reads them all first (a few per problem URL), before it streams its rows.
 */
export async function suggestionTable(
  db: Kysely<Database>,
  scanId: string,
  urls?: readonly string[],
): Promise<SuggestionTable> {
  const found = new Map<string, Suggestion>();
  const wanted = urls && [...new Set(urls.filter((url) => url !== ''))];
  const lists = wanted ? slices(wanted, urlsPerLookup) : [undefined];
  for (const list of lists) {
    if (list?.length === 0) continue;
    let query = db
      .selectFrom('scan_suggestions')
      .select(['url', 'fragment', 'kind', 'basis', 'suggested_url', 'confidence', 'hops'])
      .where('scan_id', '=', scanId);
    if (list) query = query.where('url', 'in', list);
    for (const row of await query.execute()) {
      const suggestion = storedSuggestion(row);
      if (suggestion) found.set(keyOf(row), suggestion);
    }
  }
  return new SuggestionTable(found);
}

/** A stored suggestion's columns (all null when a left join found none). */
export interface StoredSuggestion {
  kind: string | null;
  basis: string | null;
  suggested_url: string | null;
  confidence: number | string | null;
  hops: number | null;
}

/**
 * The suggestion of a stored row, or null: none stored (a left join's nulls), or one this server
 * does not know (written by a newer one), which is left out rather than an error.
 */
export function storedSuggestion(row: StoredSuggestion): Suggestion | null {
  if (row.kind === null) return null;
  const suggestion = suggestionSchema.safeParse({
    kind: row.kind,
    basis: row.basis,
    url: row.suggested_url,
    confidence: row.confidence === null ? null : Number(row.confidence),
    hops: row.hops,
  });
  return suggestion.success ? suggestion.data : null;
}

function slices<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    result.push(items.slice(start, start + size));
  return result;
}

function keyOf({ url, fragment }: SuggestionKey): string {
  return `${url}\u0000${fragment}`;
}
