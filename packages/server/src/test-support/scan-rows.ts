import type { Kysely } from 'kysely';
import { ScanStatus } from '@linkaudit/core';
import type { Database } from '../db/schema.js';
import {
  changeStatus,
  countLinksByState,
  countReferences,
  insertScan,
} from '../modules/scans/scans.repository.js';

/** A scan row a test needs in the past: finished, with the history it would have had. */
export interface FinishedScanRow {
  id: string;
  userId: string;
  url: string;
  sourceScheduleId: string | null;
  completedAt: Date;
  uniqueLinks: number;
}

/**
 * Writes a scan that finished (Complete), in one transaction: a worker polling the queue must
 * never see it Queued (it would run it and give it a real completion time).
 */
export async function insertFinishedScan(
  db: Kysely<Database>,
  scan: FinishedScanRow,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertScan(trx, {
      id: scan.id,
      userId: scan.userId,
      url: scan.url,
      priority: 1,
      scanType: 3,
      settingsJson: JSON.stringify({ url: scan.url }),
      scheduleSettingsJson: null,
      enableSchedule: scan.sourceScheduleId !== null,
      saveScheduleOnly: false,
      sourceScheduleId: scan.sourceScheduleId,
      createdAt: new Date(scan.completedAt.getTime() - 60_000),
    });
    await changeStatus(trx, scan.id, [ScanStatus.Queued], ScanStatus.Complete, {
      completedAt: scan.completedAt,
    });
    await trx
      .updateTable('scans')
      .set({ unique_links: scan.uniqueLinks })
      .where('id', '=', scan.id)
      .execute();
  });
}

/**
 * What a scan's final write adds to the rows a test inserted: each target's reference count and
 * the links counted by state and reason, as a finished scan has them.
 */
export async function countFinalResults(db: Kysely<Database>, scanId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await countReferences(trx, scanId);
    await countLinksByState(trx, scanId);
  });
}
