import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Failed sign-ins per account *and* client
// address (issue 36): an address that keeps failing waits, while the owner signing in from an
// address that has not been failing is not locked out by a stranger. sign_in_failures keeps the
// account's count of all addresses (the owner's warning mail, and the wait of failing addresses).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_address_failures')
    .addColumn('normalized_email', 'varchar(254)', (column) => column.notNull())
    .addColumn('client_address', 'varchar(64)', (column) => column.notNull())
    .addColumn('failures', 'integer', (column) => column.notNull())
    .addColumn('last_failure_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('sign_in_address_failures_pkey', [
      'normalized_email',
      'client_address',
    ])
    .execute();
  await db.schema
    .createIndex('sign_in_address_failures_last_failure_at')
    .on('sign_in_address_failures')
    .column('last_failure_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_address_failures').execute();
}
