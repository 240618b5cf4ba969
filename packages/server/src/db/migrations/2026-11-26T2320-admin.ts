import type { Kysely } from 'kysely';

// Frozen history: never import application code here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What the holder of a running scan does once it has stopped its attempt (issue 24): `requeue`
  // (back to the queue) or `fail` (Failed), set by an administrator; null for a plain cancel.
  // Only the lease holder moves the scan on, so two attempts of one scan never overlap.
  await db.schema.alterTable('scans').addColumn('stop_action', 'varchar(16)').execute();
  // A disabled account keeps every row; it cannot sign in and its scans are stopped.
  await db.schema.alterTable('users').addColumn('disabled_at', 'timestamptz').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'timestamptz').execute();
  // Every administrator action: who, when, what, and the state before and after (JSON).
  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('admin_id', 'varchar(36)', (column) => column.notNull())
    .addColumn('admin_email', 'varchar(254)', (column) => column.notNull())
    .addColumn('action', 'varchar(64)', (column) => column.notNull())
    .addColumn('target_type', 'varchar(16)', (column) => column.notNull())
    .addColumn('target_id', 'varchar(254)', (column) => column.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('admin_audit_created_at')
    .on('admin_audit')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('admin_audit_target')
    .on('admin_audit')
    .columns(['target_id', 'created_at'])
    .execute();

  // Leases that ran out and scans they sent back to the queue (health: the last 24 h).
  await db.schema
    .createTable('scan_lease_events')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('scan_id', 'varchar(64)', (column) => column.notNull())
    .addColumn('kind', 'varchar(16)', (column) => column.notNull())
    .addColumn('at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('scan_lease_events_at')
    .on('scan_lease_events')
    .columns(['at', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scan_lease_events').execute();
  await db.schema.dropTable('admin_audit').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('scans').dropColumn('stop_action').execute();
}
