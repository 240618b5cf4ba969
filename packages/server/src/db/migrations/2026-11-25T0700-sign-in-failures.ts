import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Failed password sign-ins per address tried (whether or not it has an account): the
  // per-account backoff of issue 21, shared by every api process.
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('normalized_email', 'varchar(254)', (column) => column.primaryKey())
    .addColumn('failures', 'integer', (column) => column.notNull())
    .addColumn('last_failure_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('sign_in_failures_last_failure_at')
    .on('sign_in_failures')
    .column('last_failure_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_failures').execute();
}
