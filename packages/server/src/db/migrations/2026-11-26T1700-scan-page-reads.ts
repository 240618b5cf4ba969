import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A running scan's pages as read (the engine's page-read events), so a scan resumed after a
  // crash does not fetch them again (issue 21). Removed when the scan finishes.
  await db.schema
    .createTable('scan_page_reads')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('record_json', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('scan_page_reads_pk', ['scan_id', 'url'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scan_page_reads').execute();
}
