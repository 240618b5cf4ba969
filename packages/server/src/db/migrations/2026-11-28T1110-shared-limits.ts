import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Limits every api process shares in the
// scaled mode (issue 36), so N processes behind a load balancer do not allow N times as much:
// the per-address request counts of rate-limited routes, and the places of heavy report reads.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'varchar(400)', (column) => column.primaryKey())
    .addColumn('hits', 'integer', (column) => column.notNull())
    .addColumn('window_ends_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limit_hits_window_ends_at')
    .on('rate_limit_hits')
    .column('window_ends_at')
    .execute();
  await db.schema
    .createTable('heavy_read_places')
    .addColumn('gate', 'varchar(20)', (column) => column.notNull())
    .addColumn('reader', 'varchar(200)', (column) => column.notNull())
    .addColumn('place', 'integer', (column) => column.notNull())
    .addColumn('holder', 'varchar(64)', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('heavy_read_places_pkey', ['gate', 'reader', 'place'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('heavy_read_places').execute();
  await db.schema.dropTable('rate_limit_hits').execute();
}
