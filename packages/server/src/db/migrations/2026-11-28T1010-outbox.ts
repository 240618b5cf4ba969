import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Issue 36: outgoing messages (mail now,
// webhooks later) are rows written with the change that causes them and delivered by a worker
// with retries, so an SMTP outage or a restart delays them instead of losing them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('kind', 'varchar(20)', (column) => column.notNull())
    .addColumn('recipient', 'varchar(2000)', (column) => column.notNull())
    .addColumn('summary', 'varchar(500)', (column) => column.notNull())
    .addColumn('payload_json', 'text', (column) => column.notNull())
    .addColumn('state', 'varchar(12)', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('lease_owner', 'varchar(100)')
    .addColumn('lease_expires_at', 'timestamptz')
    .execute();
  // The worker's look: due pending rows (and sending ones whose lease ran out), oldest first.
  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['state', 'next_attempt_at'])
    .execute();
  // The operator's list, newest first, by state or all.
  await db.schema.createIndex('outbox_created').on('outbox').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
}
