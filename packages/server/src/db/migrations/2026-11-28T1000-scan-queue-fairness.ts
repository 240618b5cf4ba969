import { sql, type Kysely } from 'kysely';

// Frozen history: never import application code here. Issue 36's fair queue: a re-queued scan
// (lost lease, engine exception) waits until `not_before`; a worker picks the user whose last
// start is oldest among those under their plan's running cap, so it looks up each queued
// owner's running scans and last start by index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('scans').addColumn('not_before', 'timestamptz').execute();
  await db.schema
    .createIndex('scans_user_status')
    .on('scans')
    .columns(['user_id', 'status'])
    .execute();
  await db.schema
    .createIndex('scans_user_started')
    .on('scans')
    .columns(['user_id', 'started_at'])
    .execute();
  // New indexes without statistics mislead SQLite's planner (2026-11-28T0610): analyze them all.
  await sql`analyze`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scans_user_started').execute();
  await db.schema.dropIndex('scans_user_status').execute();
  await db.schema.alterTable('scans').dropColumn('not_before').execute();
}
