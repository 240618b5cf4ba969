import { sql, type Kysely } from 'kysely';

// Frozen history: never import application code here. Issue 34: the page tab filtered by content
// type, by size (its default) or by address, walked in index order instead of sorting every page
// of that type (a deep page of 100,000 pages by address: 1.1 s).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('scan_pages_type_size')
    .on('scan_pages')
    .columns(['scan_id', 'content_type', 'total_bytes desc', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_pages_type_url')
    .on('scan_pages')
    .columns(['scan_id', 'content_type', 'url', 'id'])
    .execute();
  // A new index without statistics misleads SQLite's planner (the first summary of a 100,000-page
  // scan after this migration took 85 s instead of 0.6), and so do statistics of one table newer
  // than the others' (pages counted over 12 scans, links over 1: a link page walked the pages and
  // sorted, minutes instead of 15 ms). ANALYZE every table, as the scan worker's refresh does.
  await sql`analyze`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_pages_type_url').execute();
  await db.schema.dropIndex('scan_pages_type_size').execute();
}
