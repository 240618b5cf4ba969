import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen history: never import application code here. A rule id is stored up to 100 characters
// in scan_rule_violations, but only 10 in scan_changes and triage_marks: PostgreSQL refused to
// store the changes of a scan whose rule ids were longer (500 on the changes view), where SQLite,
// which ignores a varchar's length, let them through. Both now take what violations hold.
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite has no ALTER COLUMN and never enforced the length.
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of ['scan_changes', 'triage_marks']) {
    await db.schema
      .alterTable(table)
      .alterColumn('rule_id', (column) => column.setDataType('varchar(100)'))
      .execute();
  }
}

export async function down(): Promise<void> {
  // Narrowing again could fail on the rows stored since; the wider column is kept.
}
