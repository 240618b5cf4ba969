// Test-only: records that an account used `n` unique URLs this month, as one finished scan, so
// the browser tests get the server's real monthly-credit answers (12 limit reached, 13 low
// credit) without crawling tens of thousands of URLs first. Writes through the server's own
// repository layer into the E2E data directory, as `linkaudit-server plan set` does.
//
//   DATA_DIR=… node e2e/record-usage.mjs <email> <n> [<start address>]
// The address (default http://usage-record.example.com/) is one of the account's kept websites.
import { randomUUID } from 'node:crypto';
import { ScanStatus } from '@linkaudit/core';
import { loadConfig } from '../packages/server/dist/config.js';
import { openDatabase } from '../packages/server/dist/db/database.js';
import { findUserByEmail } from '../packages/server/dist/modules/accounts/accounts.repository.js';
import {
  changeStatus,
  insertScan,
  updateTotals,
} from '../packages/server/dist/modules/scans/scans.repository.js';

const [email, count, address] = process.argv.slice(2);
const used = Number(count);
if (!email || !Number.isInteger(used) || used < 0) {
  console.error('usage: node e2e/record-usage.mjs <email> <unique URLs used>');
  process.exit(1);
}

const database = await openDatabase(loadConfig());
try {
  const user = await findUserByEmail(database.db, email);
  if (!user) throw new Error(`No account has the address ${email}.`);
  const id = randomUUID();
  const now = new Date();
  const url = address ?? 'http://usage-record.example.com/';
  // One transaction: the server's workers never see the scan queued, only finished.
  await database.db.transaction().execute(async (trx) => {
    await insertScan(trx, {
      id,
      userId: user.id,
      url,
      priority: 0,
      scanType: 1,
      settingsJson: JSON.stringify({ url }),
      scheduleSettingsJson: null,
      enableSchedule: false,
      saveScheduleOnly: false,
      createdAt: now,
    });
    await changeStatus(trx, id, [ScanStatus.Queued], ScanStatus.Complete, { completedAt: now });
    await updateTotals(trx, id, {
      totalQueuedLinks: 0,
      totalLinks: used,
      uniqueLinks: used,
      badLinks: 0,
      uniqueBadLinks: 0,
      numPages: 1,
      durationMs: 1000,
    });
  });
  console.log(`${email} used ${used} unique URLs this month (scan ${id}).`);
} finally {
  await database.close();
}
