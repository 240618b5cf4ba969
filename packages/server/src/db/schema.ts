import type { AccountsTables } from '../modules/accounts/accounts.table.js';
import type { AdminTables } from '../modules/admin/admin.table.js';
import type { BiTables } from '../modules/bi/bi.table.js';
import type { BillingTables } from '../modules/billing/billing.table.js';
import type { LimitsTables } from '../modules/limits/limits.table.js';
import type { ScansTables } from '../modules/scans/scans.table.js';
import type { SchedulesTables } from '../modules/schedules/schedules.table.js';
import type { SpellingTables } from '../modules/spelling/spelling.table.js';
import type { TriageTables } from '../modules/reports/triage.table.js';
import type { ReadFiguresTables } from '../modules/reports/read-figures.table.js';
import type { OutboxTables } from '../modules/outbox/outbox.table.js';

/** Table types of every domain, composed into the one Database interface Kysely is typed with. */
export interface ServerMetaTable {
  key: string;
  value: string;
}

export interface Database
  extends
    AccountsTables,
    AdminTables,
    BiTables,
    BillingTables,
    LimitsTables,
    ScansTables,
    SchedulesTables,
    SpellingTables,
    TriageTables,
    ReadFiguresTables,
    OutboxTables {
  server_meta: ServerMetaTable;
}
