import { sampleReportOwnerEmail } from '@linkaudit/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The sample report's bookkeeping: its scan id in server_meta, and who owns the scan. */

export const sampleScanKey = 'sample-scan-id';

/**
 * The account that owns the sample scan. Its "address" has no @, so nobody can register it or
 * sign in as it (it has no password either); its plan is Enterprise so no cap applies.
 */
export const sampleOwner = {
  id: '00000000-0000-4000-8000-00000000a11d',
  email: sampleReportOwnerEmail,
  planId: 'Enterprise',
} as const;

export async function findSampleScanId(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_meta')
    .select('value')
    .where('key', '=', sampleScanKey)
    .executeTakeFirst();
  return row?.value;
}

/** Claims the sample key for `scanId`; false when another process (or an earlier start) has it. */
export async function claimSampleScanKey(db: Kysely<Database>, scanId: string): Promise<boolean> {
  const result = await db
    .insertInto('server_meta')
    .values({ key: sampleScanKey, value: scanId })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
