import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A suggested fix per checked URL (issue 27), or per URL and #fragment for a closest anchor
  // (fragment '' otherwise): the report shows it beside every link to it.
  await db.schema
    .createTable('scan_suggestions')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('fragment', 'text', (column) => column.notNull())
    .addColumn('kind', 'varchar(16)', (column) => column.notNull())
    .addColumn('basis', 'varchar(24)', (column) => column.notNull())
    .addColumn('suggested_url', 'text')
    .addColumn('confidence', 'double precision')
    .addColumn('hops', 'integer')
    .addPrimaryKeyConstraint('scan_suggestions_pk', ['scan_id', 'url', 'fragment'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scan_suggestions').execute();
}
