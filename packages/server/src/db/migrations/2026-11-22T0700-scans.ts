import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Scans, their queue fields, and their
// results in normalised tables keyed by (scan_id, …) so reports group and page with indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('paid_plan_id', 'varchar(20)', (column) => column.notNull().defaultTo('Free'))
    .execute();

  await db.schema
    .createTable('scans')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('priority', 'integer', (column) => column.notNull())
    .addColumn('status', 'integer', (column) => column.notNull())
    .addColumn('scan_type', 'integer', (column) => column.notNull())
    .addColumn('settings_json', 'text', (column) => column.notNull())
    .addColumn('schedule_settings_json', 'text')
    .addColumn('enable_schedule', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('save_schedule_only', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('source_schedule_id', 'varchar(36)')
    .addColumn('status_code', 'integer')
    .addColumn('total_queued_links', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('total_links', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('unique_links', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('bad_links', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('unique_bad_links', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('num_pages', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('log_message', 'text')
    .addColumn('summary_json', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('lease_owner', 'varchar(100)')
    .addColumn('lease_expires_at', 'timestamptz')
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('trashed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('scans_user')
    .on('scans')
    .columns(['user_id', 'created_at'])
    .execute();
  // The queue: the next scan is the first Queued one by plan priority, then age.
  await db.schema
    .createIndex('scans_queue')
    .on('scans')
    .columns(['status', 'priority', 'created_at'])
    .execute();
  await db.schema
    .createIndex('scans_user_completed')
    .on('scans')
    .columns(['user_id', 'completed_at'])
    .execute();

  // Unique URLs checked by a scan, with their one outcome.
  await db.schema
    .createTable('scan_targets')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('id', 'integer', (column) => column.notNull())
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('state', 'varchar(12)', (column) => column.notNull())
    .addColumn('reason', 'varchar(40)')
    .addColumn('status_code', 'integer')
    .addColumn('message', 'text')
    .addColumn('content_type', 'varchar(200)')
    .addColumn('size', 'bigint')
    .addColumn('internal', 'boolean', (column) => column.notNull())
    .addColumn('reference_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('scan_targets_pk', ['scan_id', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_targets_state')
    .on('scan_targets')
    .columns(['scan_id', 'state', 'reason'])
    .execute();

  // Crawled pages: sizes, rank and inclusion arrive after the crawl and are written with them.
  await db.schema
    .createTable('scan_pages')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('id', 'integer', (column) => column.notNull())
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('content_type', 'varchar(200)')
    .addColumn('html_bytes', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('total_bytes', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('contents_json', 'text')
    .addColumn('depth', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('title', 'text')
    .addColumn('page_rank', 'double precision')
    .addColumn('rank_score', 'double precision')
    .addColumn('inclusion_json', 'text')
    .addPrimaryKeyConstraint('scan_pages_pk', ['scan_id', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_pages_size')
    .on('scan_pages')
    .columns(['scan_id', 'total_bytes'])
    .execute();

  // Every link occurrence: which page, which target, where on the page.
  await db.schema
    .createTable('scan_links')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('id', 'integer', (column) => column.notNull())
    .addColumn('page_id', 'integer', (column) => column.notNull())
    .addColumn('target_id', 'integer', (column) => column.notNull())
    .addColumn('target', 'text', (column) => column.notNull())
    .addColumn('element', 'varchar(20)', (column) => column.notNull())
    .addColumn('line', 'integer', (column) => column.notNull())
    .addColumn('col', 'integer', (column) => column.notNull())
    .addColumn('anchor_fragment', 'text')
    .addColumn('anchor_state', 'varchar(14)')
    .addPrimaryKeyConstraint('scan_links_pk', ['scan_id', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_links_target')
    .on('scan_links')
    .columns(['scan_id', 'target_id'])
    .execute();
  await db.schema
    .createIndex('scan_links_page')
    .on('scan_links')
    .columns(['scan_id', 'page_id'])
    .execute();

  await db.schema
    .createTable('scan_certificates')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('host', 'varchar(255)', (column) => column.notNull())
    .addColumn('valid', 'boolean', (column) => column.notNull())
    .addColumn('problem', 'varchar(20)')
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('valid_to', 'varchar(40)')
    .addColumn('days_left', 'integer')
    .addColumn('expires_soon', 'boolean', (column) => column.notNull())
    .addPrimaryKeyConstraint('scan_certificates_pk', ['scan_id', 'host'])
    .execute();

  await db.schema
    .createTable('scan_duplicate_anchors')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('page_id', 'integer', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('line', 'integer', (column) => column.notNull())
    .addColumn('col', 'integer', (column) => column.notNull())
    .addColumn('first_line', 'integer', (column) => column.notNull())
    .addColumn('first_col', 'integer', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('scan_duplicate_anchors_scan')
    .on('scan_duplicate_anchors')
    .column('scan_id')
    .execute();

  await db.schema
    .createTable('scan_rule_violations')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('page_id', 'integer', (column) => column.notNull())
    .addColumn('rule_id', 'varchar(100)', (column) => column.notNull())
    .addColumn('rule_name', 'text', (column) => column.notNull())
    .addColumn('category_id', 'integer', (column) => column.notNull())
    .addColumn('line', 'integer', (column) => column.notNull())
    .addColumn('col', 'integer', (column) => column.notNull())
    .addColumn('snippet', 'text')
    .addColumn('message', 'text')
    .execute();
  await db.schema
    .createIndex('scan_rule_violations_scan')
    .on('scan_rule_violations')
    .columns(['scan_id', 'category_id', 'rule_id'])
    .execute();
}
