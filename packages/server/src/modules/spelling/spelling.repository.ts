import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The words of one user's site, sorted. */
export async function siteWords(db: Kysely<Database>, userId: string, site: string) {
  const rows = await db
    .selectFrom('site_spelling_words')
    .select('word')
    .where('user_id', '=', userId)
    .where('site', '=', site)
    .orderBy('word')
    .execute();
  return rows.map((row) => row.word);
}

/** Adds a word (already normalised); a word already there stays as it was. */
export async function addSiteWord(
  db: Kysely<Database>,
  entry: { userId: string; site: string; word: string; at: Date },
): Promise<void> {
  await db
    .insertInto('site_spelling_words')
    .values({ user_id: entry.userId, site: entry.site, word: entry.word, created_at: entry.at })
    .onConflict((conflict) => conflict.columns(['user_id', 'site', 'word']).doNothing())
    .execute();
}

export async function removeSiteWord(
  db: Kysely<Database>,
  entry: { userId: string; site: string; word: string },
): Promise<void> {
  await db
    .deleteFrom('site_spelling_words')
    .where('user_id', '=', entry.userId)
    .where('site', '=', entry.site)
    .where('word', '=', entry.word)
    .execute();
}
