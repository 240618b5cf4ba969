import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Issue 27 triage: a user's marks on the problems of a site (the scans' start address), so a
  // mark made on one scan's report holds on every scan of that site.
  await db.schema
    .createTable('triage_marks')
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('site', 'varchar(2000)', (column) => column.notNull())
    // link | anchor | rule
    .addColumn('kind', 'varchar(10)', (column) => column.notNull())
    // The broken URL, the link with its #fragment, or the page of a rule finding.
    .addColumn('target', 'varchar(4000)', (column) => column.notNull())
    // The rule's id for a rule finding, '' otherwise.
    .addColumn('rule_id', 'varchar(10)', (column) => column.notNull())
    // sha256 (hex) of kind, rule id and target: the key, since a 4000-character target in it
    // would pass PostgreSQL's 2704-byte limit of an index entry.
    .addColumn('target_hash', 'varchar(64)', (column) => column.notNull())
    // ignored | willFix
    .addColumn('mark', 'varchar(10)', (column) => column.notNull())
    .addColumn('note', 'varchar(500)', (column) => column.notNull())
    .addColumn('marked_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('triage_marks_pk', ['user_id', 'site', 'target_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('triage_marks').execute();
}
