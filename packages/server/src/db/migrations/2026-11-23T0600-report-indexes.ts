import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Report reads by URL: a link tab sorted by
// target (the default) walks targets in URL order instead of sorting every occurrence, and
// expanding a group (`target=` or `source=`) finds its one target or page by URL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('scan_targets_url')
    .on('scan_targets')
    .columns(['scan_id', 'url'])
    .execute();
  await db.schema
    .createIndex('scan_pages_url')
    .on('scan_pages')
    .columns(['scan_id', 'url'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_pages_url').execute();
  await db.schema.dropIndex('scan_targets_url').execute();
}
