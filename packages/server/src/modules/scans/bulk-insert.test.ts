import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import {
  openTestDatabase,
  testDialects,
  type TestDatabase,
} from '../../test-support/test-server.js';
import { insertFinishedScan } from '../../test-support/scan-rows.js';
import { chunkSizes, insertRows, rowsPerInsert } from './bulk-insert.repository.js';
import type { ScanPageReadsTable, ScanTargetsTable } from './scans.table.js';

const targetColumns = [
  'scan_id',
  'id',
  'url',
  'state',
  'reason',
  'status_code',
  'message',
  'content_type',
  'size',
  'internal',
  'check_detail_json',
] as const;

describe('the row counts of a batch', () => {
  it('are full INSERTs, then powers of two, adding up to the batch', () => {
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(rowsPerInsert * 2 + 7)).toEqual([rowsPerInsert, rowsPerInsert, 4, 2, 1]);
    for (const count of [3, 399, 400, 401, 1234]) {
      const sizes = chunkSizes(count);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count);
      // Few shapes, so each one's SQL and prepared statement is reused.
      expect(
        sizes.every((size) => size === rowsPerInsert || Number.isInteger(Math.log2(size))),
      ).toBe(true);
    }
  });
});

describe.each(testDialects())('rows inserted with reused statements (%s)', (dialect) => {
  let testDatabase: TestDatabase;
  const scanId = '0b6f3c38-5f2a-4d4e-9a37-5d1f2b7c9e01';

  beforeAll(async () => {
    testDatabase = await openTestDatabase(dialect);
    const { db } = testDatabase.database;
    const userId = '7d1c6a52-3b4e-4f0a-8c2d-9e6f1a2b3c4d';
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: 'bulk@example.com',
        normalized_email: 'bulk@example.com',
        first_name: 'Bulk',
        last_name: 'Insert',
        language: 'en',
        created_at: new Date('2026-11-28T05:00:00Z'),
      })
      .execute();
    await insertFinishedScan(db, {
      id: scanId,
      userId,
      url: 'https://example.com/',
      sourceScheduleId: null,
      completedAt: new Date('2026-11-28T06:00:00Z'),
      uniqueLinks: 0,
    });
  }, 60_000);

  afterAll(async () => testDatabase?.drop());

  it('stores every row of every shape with its values, NULLs and flags as given', async () => {
    const { db } = testDatabase.database;
    // Two batches of odd sizes: the second reuses the first one's statements with new values.
    const rows = Array.from({ length: 1234 }, (_, index): Insertable<ScanTargetsTable> => ({
      scan_id: scanId,
      id: index + 1,
      url: `https://example.com/${index}`,
      state: index % 3 === 0 ? 'broken' : 'ok',
      reason: index % 3 === 0 ? 'NotFound' : null,
      status_code: index % 3 === 0 ? 404 : 200,
      message: index % 5 === 0 ? `message ${index}` : null,
      content_type: index % 3 === 0 ? null : 'text/html',
      size: index % 2 === 0 ? index * 10 : null,
      internal: index % 4 !== 0,
      check_detail_json: null,
    }));
    await db.transaction().execute(async (trx) => {
      await insertRows(trx, 'scan_targets', targetColumns, rows.slice(0, 517));
      await insertRows(trx, 'scan_targets', targetColumns, rows.slice(517));
    });
    const stored = await db
      .selectFrom('scan_targets')
      .selectAll()
      .where('scan_id', '=', scanId)
      .orderBy('id')
      .execute();
    expect(stored).toHaveLength(rows.length);
    for (const [index, row] of stored.entries()) {
      const expected = rows[index]!;
      expect({
        id: row.id,
        url: row.url,
        state: row.state,
        reason: row.reason,
        status_code: row.status_code,
        message: row.message,
        content_type: row.content_type,
        size: row.size === null ? null : Number(row.size),
        internal: Boolean(row.internal),
        reference_count: row.reference_count,
      }).toEqual({
        id: expected.id,
        url: expected.url,
        state: expected.state,
        reason: expected.reason,
        status_code: expected.status_code,
        message: expected.message,
        content_type: expected.content_type,
        size: expected.size,
        internal: expected.internal,
        // A column left out of the list keeps its default.
        reference_count: 0,
      });
    }
  });

  it('leaves a row already stored as it is when asked to ignore conflicts', async () => {
    const { db } = testDatabase.database;
    const read = (url: string, record: string): Insertable<ScanPageReadsTable> => ({
      scan_id: scanId,
      url,
      record_json: record,
    });
    const columns = ['scan_id', 'url', 'record_json'] as const;
    await insertRows(db, 'scan_page_reads', columns, [read('https://example.com/a', 'first')]);
    await insertRows(
      db,
      'scan_page_reads',
      columns,
      [read('https://example.com/a', 'second'), read('https://example.com/b', 'only')],
      { ignoreConflicts: true },
    );
    const stored = await db
      .selectFrom('scan_page_reads')
      .select(['url', 'record_json'])
      .where('scan_id', '=', scanId)
      .orderBy('url')
      .execute();
    expect(stored).toEqual([
      { url: 'https://example.com/a', record_json: 'first' },
      { url: 'https://example.com/b', record_json: 'only' },
    ]);
  });
});
