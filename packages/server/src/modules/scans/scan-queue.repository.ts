import { sql } from 'kysely';
import { ScanStatus } from '@linkaudit/core';
import type { DatabaseHandle } from '../../db/database.js';
import type { ScanRow } from './scans.repository.js';

/**
 * Taking the next queued scan: the only dialect-specific SQL of the scans domain. PostgreSQL
 * locks the chosen row with FOR UPDATE SKIP LOCKED, so any number of workers on any number of
 * machines each get a different scan without waiting; SQLite (one file, one writer) does it in
 * one conditional UPDATE … WHERE status = Queued.
 */
export async function claimNextScan(
  database: DatabaseHandle,
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<ScanRow | undefined> {
  const claim = {
    status: ScanStatus.InProgress,
    lease_owner: owner,
    lease_expires_at: leaseUntil,
    started_at: now,
    attempts: sql<number>`attempts + 1`,
  };
  const { db } = database;
  if (database.dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      const next = await trx
        .selectFrom('scans')
        .select('id')
        .where('status', '=', ScanStatus.Queued)
        .where('trashed_at', 'is', null)
        .orderBy('priority', 'desc')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!next) return undefined;
      return trx
        .updateTable('scans')
        .set(claim)
        .where('id', '=', next.id)
        .returningAll()
        .executeTakeFirst();
    });
  }
  return db
    .updateTable('scans')
    .set(claim)
    .where('status', '=', ScanStatus.Queued)
    .where('id', '=', (eb) =>
      eb
        .selectFrom('scans')
        .select('id')
        .where('status', '=', ScanStatus.Queued)
        .where('trashed_at', 'is', null)
        .orderBy('priority', 'desc')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1),
    )
    .returningAll()
    .executeTakeFirst();
}
