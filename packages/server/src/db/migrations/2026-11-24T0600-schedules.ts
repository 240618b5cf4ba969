import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Scheduled scans; runs are ordinary scans
// that point back with scans.source_schedule_id.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('status', 'integer', (column) => column.notNull())
    .addColumn('scan_type', 'integer', (column) => column.notNull())
    .addColumn('settings_json', 'text', (column) => column.notNull())
    .addColumn('schedule_settings_json', 'text', (column) => column.notNull())
    .addColumn('cron_expression', 'varchar(100)', (column) => column.notNull())
    .addColumn('notify_on_change', 'boolean', (column) => column.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
    .addColumn('next_run_at', 'timestamptz')
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('last_scan_id', 'varchar(36)')
    .addColumn('run_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('skipped_runs', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_skipped_at', 'timestamptz')
    .addColumn('last_skip_reason', 'text')
    .execute();
  await db.schema
    .createIndex('schedules_user')
    .on('schedules')
    .columns(['user_id', 'created_at'])
    .execute();
  // The scheduler's question: which active schedules are due?
  await db.schema
    .createIndex('schedules_due')
    .on('schedules')
    .columns(['status', 'next_run_at'])
    .execute();
  // A schedule's history: its runs, newest first.
  await db.schema
    .createIndex('scans_source_schedule')
    .on('scans')
    .columns(['source_schedule_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scans_source_schedule').execute();
  await db.schema.dropTable('schedules').execute();
}
