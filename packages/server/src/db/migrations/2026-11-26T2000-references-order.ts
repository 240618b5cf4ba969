import { sql, type Kysely } from 'kysely';

// Frozen history: never import application code here. The link tab sorted by references (issue
// 21): targets in reference-count order, then id, unique, so the database walks them from the
// index and takes each one's links in id order from scan_links_target, without sorting. Before,
// ties were broken by link id across targets, which made SQLite sort every link of the most
// referenced targets (1.1 s for page 1 of 3.4 million links) to answer 50 of them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_targets_references').execute();
  await db.schema
    .createIndex('scan_targets_references')
    .unique()
    .on('scan_targets')
    .columns(['scan_id', 'reference_count', 'id'])
    .execute();
  await sql`analyze scan_targets`.execute(db);
}
