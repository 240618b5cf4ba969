import { sql, type Kysely } from 'kysely';

// Frozen history: never import application code here. Report tabs of every finding (issue 23):
// - scan_pages gets a page's inclusion as columns (incoming links, in the sitemap, orphan), so the
//   page-inclusion tab filters and sorts in the database instead of parsing inclusion_json, filled
//   here from that JSON for the scans that finished before;
// - duplicate anchors by page, for the duplicate-anchor tab's page order;
// - pages by incoming links and by rank, the inclusion tab's and the page tab's rank order.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('scan_pages').addColumn('inbound_links', 'integer').execute();
  await db.schema.alterTable('scan_pages').addColumn('in_sitemap', 'boolean').execute();
  await db.schema.alterTable('scan_pages').addColumn('orphan', 'boolean').execute();
  await backfillInclusion(db);
  await db.schema
    .createIndex('scan_pages_inclusion')
    .on('scan_pages')
    .columns(['scan_id', 'inbound_links', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_pages_rank')
    .on('scan_pages')
    .columns(['scan_id', 'page_rank', 'id'])
    .execute();
  await db.schema
    .createIndex('scan_duplicate_anchors_page')
    .on('scan_duplicate_anchors')
    .columns(['scan_id', 'page_id', 'line'])
    .execute();
}

/** Reads the stored JSON of earlier scans a batch at a time (each row leaves the batch once set). */
async function backfillInclusion(db: Kysely<unknown>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ scan_id: string; id: number; inclusion_json: string }>`
      select scan_id, id, inclusion_json from scan_pages
      where inclusion_json is not null and in_sitemap is null limit 500`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      let facts: { inboundLinks?: unknown; inSitemap?: unknown; orphan?: unknown } = {};
      try {
        facts = JSON.parse(row.inclusion_json) as typeof facts;
      } catch {
        // Unreadable JSON: the page reads as not in the sitemap, with no incoming links.
      }
      const inbound = typeof facts.inboundLinks === 'number' ? facts.inboundLinks : 0;
      await sql`update scan_pages
        set inbound_links = ${inbound}, in_sitemap = ${facts.inSitemap === true},
            orphan = ${facts.orphan === true}
        where scan_id = ${row.scan_id} and id = ${row.id}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_duplicate_anchors_page').execute();
  await db.schema.dropIndex('scan_pages_rank').execute();
  await db.schema.dropIndex('scan_pages_inclusion').execute();
  await db.schema.alterTable('scan_pages').dropColumn('orphan').execute();
  await db.schema.alterTable('scan_pages').dropColumn('in_sitemap').execute();
  await db.schema.alterTable('scan_pages').dropColumn('inbound_links').execute();
}
