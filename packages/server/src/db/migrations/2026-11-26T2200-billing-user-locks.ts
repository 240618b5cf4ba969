import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Billing calls of one user run one at a
// time across every api process (issue 22): a row per user held while a call runs, with a lease
// so a process that died holding it cannot block the user for longer than the lease.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_user_locks')
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('holder', 'varchar(64)', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('billing_user_locks').execute();
}
