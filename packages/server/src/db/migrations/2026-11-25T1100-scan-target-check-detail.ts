import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What of a target's check its other columns do not hold (final address, redirects, error
  // code), so a scan resumed after a crash reuses the check exactly (issue 21). Null when the
  // check has none of them, as for most targets.
  await db.schema.alterTable('scan_targets').addColumn('check_detail_json', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('scan_targets').dropColumn('check_detail_json').execute();
}
