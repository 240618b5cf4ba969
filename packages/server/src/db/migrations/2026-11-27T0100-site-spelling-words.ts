import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Words a user told the spelling rules to accept on one site (issue 25: "ignore this word"),
  // keyed by the scan's start address; every new scan of that address takes them.
  await db.schema
    .createTable('site_spelling_words')
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('site', 'varchar(2000)', (column) => column.notNull())
    .addColumn('word', 'varchar(100)', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('site_spelling_words_pk', ['user_id', 'site', 'word'])
    .execute();
  // A finding's group of the grouped rule view (core's ruleGroupKeyOf), written with it; null
  // for findings written before (the view then groups them by message, else snippet).
  await db.schema.alterTable('scan_rule_violations').addColumn('group_key', 'text').execute();
  // The grouped rule view reads one rule's findings of a scan.
  await db.schema
    .createIndex('scan_rule_violations_rule')
    .on('scan_rule_violations')
    .columns(['scan_id', 'rule_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_rule_violations_rule').execute();
  await db.schema.alterTable('scan_rule_violations').dropColumn('group_key').execute();
  await db.schema.dropTable('site_spelling_words').execute();
}
