import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { biScanRows, insertBiScan } from '../test-support/bi-scan-rows.js';
import { openTestDatabase, testDialects, type TestDatabase } from '../test-support/test-server.js';
import { refreshStatistics } from './database.js';

/** A user to own the scans the statistics count. */
async function newUser(handle: TestDatabase): Promise<string> {
  const id = randomUUID();
  await handle.database.db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      normalized_email: `${id}@example.com`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      language: 'en',
      email_confirmed_at: null,
      created_at: new Date(),
    })
    .execute();
  return id;
}

describe.each(testDialects())('planner statistics after a scan (%s)', (dialect) => {
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.drop();
    handle = undefined;
  });

  it('are made when there are none, then again only for a scan that adds a tenth or more', async () => {
    handle = await openTestDatabase(dialect);
    const userId = await newUser(handle);
    await insertBiScan(handle.database.db, userId, biScanRows(2000));
    if (dialect === 'postgres') {
      // PostgreSQL's autovacuum keeps its own statistics.
      expect(await refreshStatistics(handle.database, 2000)).toBe(false);
      return;
    }
    const counted = async () => {
      const rows = await sql<{ stat: string }>`
        select stat from sqlite_stat1 where tbl = 'scan_links' limit 1`.execute(
        handle!.database.db,
      );
      return Number(rows.rows[0]!.stat.split(' ')[0]);
    };
    expect(await refreshStatistics(handle.database, 2000)).toBe(true);
    expect(await counted()).toBe(2000);
    // A scan of 150 links more: under a tenth of the 2,000 counted, the statistics stay.
    await insertBiScan(handle.database.db, userId, biScanRows(150));
    expect(await refreshStatistics(handle.database, 150)).toBe(false);
    expect(await counted()).toBe(2000);
    // One of 300: a tenth or more, counted again with everything stored since.
    await insertBiScan(handle.database.db, userId, biScanRows(300));
    expect(await refreshStatistics(handle.database, 300)).toBe(true);
    expect(await counted()).toBe(2450);
  });
});
