import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Named figures of a finished scan (scan_read_figures), as stored: JSON of one read's needs. */
export async function readStored<T>(
  db: Kysely<Database>,
  scanId: string,
  name: string,
): Promise<T | undefined> {
  const row = await db
    .selectFrom('scan_read_figures')
    .select('figures_json')
    .where('scan_id', '=', scanId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? (JSON.parse(row.figures_json) as T) : undefined;
}

/** Stores (or replaces) the scan's figures of `name`. */
export async function writeStored(
  db: Kysely<Database>,
  scanId: string,
  name: string,
  figures: unknown,
): Promise<void> {
  const figuresJson = JSON.stringify(figures);
  await db
    .insertInto('scan_read_figures')
    .values({ scan_id: scanId, name, figures_json: figuresJson })
    .onConflict((conflict) =>
      conflict.columns(['scan_id', 'name']).doUpdateSet({ figures_json: figuresJson }),
    )
    .execute();
}

/** A scan's rows of one result table. */
export async function rowsOf(
  db: Kysely<Database>,
  table: 'scan_pages' | 'scan_duplicate_anchors',
  scanId: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('scan_id', '=', scanId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
