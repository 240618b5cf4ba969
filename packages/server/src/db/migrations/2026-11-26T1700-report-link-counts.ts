import { sql, type Kysely } from 'kysely';

// Frozen history: never import application code here. Report reads of a scan with millions of
// links (issue 21):
// - scan_link_counts: each finished scan's links counted by target state and reason, so a link
//   tab's total and filter counts are a few rows, not a count of every link (2.4 s at 3.4 million
//   links), filled here for the scans that finished before;
// - links of a target and pages of a size in id order (the id appended to the index), so a page
//   of the link tab (sorted by target, then link) and of the page tab (largest first, then page)
//   is read in index order instead of sorting every link of a target linked from every page.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scan_link_counts')
    .addColumn('scan_id', 'varchar(36)', (column) =>
      column.notNull().references('scans.id').onDelete('cascade'),
    )
    .addColumn('state', 'varchar(12)', (column) => column.notNull())
    .addColumn('reason', 'varchar(40)')
    .addColumn('links', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('scan_link_counts_scan')
    .on('scan_link_counts')
    .columns(['scan_id', 'state'])
    .execute();
  // Finished scans (SPEC §4: Complete 1, Cancelled 2, Failed 3 and 4, 10), counted from the links
  // themselves as the report did, whatever their targets' reference counts say.
  await sql`insert into scan_link_counts (scan_id, state, reason, links)
    select l.scan_id, t.state, t.reason, count(*)
    from scan_links l
    join scan_targets t on t.scan_id = l.scan_id and t.id = l.target_id
    where l.scan_id in (select id from scans where status in (1, 2, 3, 4, 10))
    group by l.scan_id, t.state, t.reason`.execute(db);

  // Targets in URL order, then id: unique, so SQLite knows each step of the walk is one target
  // and takes its links in id order from scan_links_target without sorting them (page 1 of a
  // scan whose first URL is linked from every page: 1.1 s → 1 ms). And targets in URL order with
  // what a deep page's start is found from (reference counts, filters), read from the index alone.
  await db.schema.dropIndex('scan_targets_url').execute();
  await db.schema
    .createIndex('scan_targets_url')
    .unique()
    .on('scan_targets')
    .columns(['scan_id', 'url', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_targets_url_counts')
    .on('scan_targets')
    .columns(['scan_id', 'url', 'reference_count', 'state', 'reason'])
    .execute();
  await db.schema.dropIndex('scan_links_target').execute();
  await db.schema
    .createIndex('scan_links_target')
    .on('scan_links')
    .columns(['scan_id', 'target_id', 'id'])
    .execute();
  await db.schema.dropIndex('scan_pages_size').execute();
  // Largest first, then by id: the page tab's default order, walked without sorting.
  await db.schema
    .createIndex('scan_pages_size')
    .on('scan_pages')
    .columns(['scan_id', 'total_bytes desc', 'id'])
    .execute();
  // A dropped index takes its planner statistics along: without fresh ones SQLite walks every
  // link of a scan for a page of 50 (4 s → 60 s). Both dialects know ANALYZE of a table.
  await sql`analyze scan_targets`.execute(db);
  await sql`analyze scan_links`.execute(db);
  await sql`analyze scan_pages`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_targets_url_counts').execute();
  await db.schema.dropIndex('scan_targets_url').execute();
  await db.schema
    .createIndex('scan_targets_url')
    .on('scan_targets')
    .columns(['scan_id', 'url'])
    .execute();
  await db.schema.dropIndex('scan_pages_size').execute();
  await db.schema
    .createIndex('scan_pages_size')
    .on('scan_pages')
    .columns(['scan_id', 'total_bytes'])
    .execute();
  // Targets in URL order, then id: unique, so SQLite knows each step of the walk is one target
  // and takes its links in id order from scan_links_target without sorting them (page 1 of a
  // scan whose first URL is linked from every page: 1.1 s → 1 ms). And targets in URL order with
  // what a deep page's start is found from (reference counts, filters), read from the index alone.
  await db.schema.dropIndex('scan_targets_url').execute();
  await db.schema
    .createIndex('scan_targets_url')
    .unique()
    .on('scan_targets')
    .columns(['scan_id', 'url', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_targets_url_counts')
    .on('scan_targets')
    .columns(['scan_id', 'url', 'reference_count', 'state', 'reason'])
    .execute();
  await db.schema.dropIndex('scan_links_target').execute();
  await db.schema
    .createIndex('scan_links_target')
    .on('scan_links')
    .columns(['scan_id', 'target_id'])
    .execute();
  await db.schema.dropTable('scan_link_counts').execute();
}
