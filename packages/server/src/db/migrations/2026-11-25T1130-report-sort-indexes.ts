import { sql, type Kysely } from 'kysely';

// Frozen history: never import application code here. Report pages without a sort of the whole
// scan (issue 21): the link tab sorted by references walks targets in that order; the anchor
// filter finds a scan's few links with an anchor state (most links have none) and their
// targets; the rule tab, sorted by rule name (its default) with or without a category, walks
// violations in that order and sorts only the rows of the first rule names.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('scan_targets_references')
    .on('scan_targets')
    .columns(['scan_id', 'reference_count'])
    .execute();
  await db.schema
    .createIndex('scan_links_anchor_state')
    .on('scan_links')
    .columns(['scan_id', 'anchor_state', 'target_id'])
    .where(sql.ref('anchor_state'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('scan_rule_violations_rule_name')
    .on('scan_rule_violations')
    .columns(['scan_id', 'rule_name'])
    .execute();
  await db.schema
    .createIndex('scan_rule_violations_category_rule_name')
    .on('scan_rule_violations')
    .columns(['scan_id', 'category_id', 'rule_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scan_rule_violations_category_rule_name').execute();
  await db.schema.dropIndex('scan_rule_violations_rule_name').execute();
  await db.schema.dropIndex('scan_links_anchor_state').execute();
  await db.schema.dropIndex('scan_targets_references').execute();
}
