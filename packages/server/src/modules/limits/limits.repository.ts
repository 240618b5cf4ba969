import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toDate } from '../../db/values.js';

/**
 * Counts one more request of `key`: a window that has ended starts again at 1 and lasts
 * `windowMs` from now. One upsert, so concurrent requests from every process all count.
 */
export async function countHit(
  db: Kysely<Database>,
  key: string,
  now: Date,
  windowMs: number,
): Promise<{ hits: number; windowEndsAt: Date }> {
  const windowEnds = new Date(now.getTime() + windowMs);
  const row = await db
    .insertInto('rate_limit_hits')
    .values({ key, hits: 1, window_ends_at: windowEnds })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => {
        const ended = eb('rate_limit_hits.window_ends_at', '<=', now);
        return {
          hits: eb
            .case()
            .when(ended)
            .then(1)
            .else(eb('rate_limit_hits.hits', '+', 1))
            .end(),
          window_ends_at: eb
            .case()
            .when(ended)
            .then(windowEnds)
            .else(eb.ref('rate_limit_hits.window_ends_at'))
            .end(),
        };
      }),
    )
    .returning(['hits', 'window_ends_at'])
    .executeTakeFirstOrThrow();
  return { hits: row.hits, windowEndsAt: toDate(row.window_ends_at) };
}

/** Forgets windows that ended before `before`. */
export async function deleteEndedWindows(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('window_ends_at', '<', before).execute();
}

export interface PlaceClaim {
  gate: string;
  reader: string;
  place: number;
  holder: string;
  now: Date;
  expiresAt: Date;
}

/** Takes the place when it is free or its lease ran out; true when `holder` now holds it. */
export async function claimPlace(db: Kysely<Database>, claim: PlaceClaim): Promise<boolean> {
  const row = await db
    .insertInto('heavy_read_places')
    .values({
      gate: claim.gate,
      reader: claim.reader,
      place: claim.place,
      holder: claim.holder,
      expires_at: claim.expiresAt,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['gate', 'reader', 'place'])
        .doUpdateSet({ holder: claim.holder, expires_at: claim.expiresAt })
        .where('heavy_read_places.expires_at', '<', claim.now),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === claim.holder;
}

/** Keeps a held place for longer (nothing, when its lease ran out and another took it). */
export async function renewPlace(
  db: Kysely<Database>,
  holder: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .updateTable('heavy_read_places')
    .set({ expires_at: expiresAt })
    .where('holder', '=', holder)
    .execute();
}

export async function releasePlace(db: Kysely<Database>, holder: string): Promise<void> {
  await db.deleteFrom('heavy_read_places').where('holder', '=', holder).execute();
}
