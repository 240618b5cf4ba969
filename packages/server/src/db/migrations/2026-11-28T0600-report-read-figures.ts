import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Issue 34: what a report read needs is
// stored when the scan finishes, so a read costs a page of rows whatever the scan's size.
// - scan_read_figures: named figures of a finished scan as JSON (the summary's figures, the tabs'
//   counts, the link tab's URL checkpoints per filter, the basis of its changes); scans finished
//   before have none and compute them on their first read, once.
// - scan_changes: a finished scan's problems against the site's previous scans (new, still with
//   the date first seen, fixed), one row each in the order the changes view lists them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scan_read_figures')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(200)', (column) => column.notNull())
    .addColumn('figures_json', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('scan_read_figures_pk', ['scan_id', 'name'])
    .execute();
  await db.schema
    .createTable('scan_changes')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    // The row's place in the changes view's order (state, kind, target, detail).
    .addColumn('position', 'integer', (column) => column.notNull())
    // new | still | fixed
    .addColumn('state', 'varchar(8)', (column) => column.notNull())
    // link | anchor | certificate | rule
    .addColumn('kind', 'varchar(12)', (column) => column.notNull())
    .addColumn('target', 'text', (column) => column.notNull())
    .addColumn('detail', 'text')
    .addColumn('rule_id', 'varchar(10)')
    // ISO date-time of the earlier scan that first had it; null: this scan (or fixed).
    .addColumn('first_seen', 'varchar(30)')
    // The triage key of the problem (triage_marks.target_hash), so marks join by index.
    .addColumn('target_hash', 'varchar(64)', (column) => column.notNull())
    .addPrimaryKeyConstraint('scan_changes_pk', ['scan_id', 'position'])
    .execute();
  await db.schema
    .createIndex('scan_changes_state')
    .on('scan_changes')
    .columns(['scan_id', 'state', 'kind', 'position'])
    .execute();
  await db.schema
    .createIndex('scan_changes_hash')
    .on('scan_changes')
    .columns(['scan_id', 'target_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scan_changes').execute();
  await db.schema.dropTable('scan_read_figures').execute();
}
