import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { ThreadedSqlite } from './dialects/threaded-sqlite.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * The same database for report reads (report tabs, summaries, CSV exports) on connections of
   * their own: SQLite read threads, a PostgreSQL pool. However many heavy reads run, sign-in, the
   * scan list and the scans' own writes never wait behind them for a connection.
   */
  reportDb: Kysely<Database>;
  /**
   * The same database for CSV exports, on connections of their own again: an export steps its
   * statement for minutes, and a report page must not wait behind its steps.
   */
  exportDb: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; without one the embedded SQLite file in dataDir is used. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite connections that serve reads but reports', each in its own thread (SQLITE_READ_THREADS). */
  sqliteReadThreads?: number | undefined;
  /** SQLite connections that serve report reads, each in its own thread (SQLITE_REPORT_READ_THREADS). */
  sqliteReportReadThreads?: number | undefined;
  /** SQLite connections that serve CSV exports, each in its own thread (SQLITE_EXPORT_READ_THREADS). */
  sqliteExportReadThreads?: number | undefined;
}

export const DEFAULT_SQLITE_READ_THREADS = 1;
export const DEFAULT_SQLITE_REPORT_READ_THREADS = 2;
export const DEFAULT_SQLITE_EXPORT_READ_THREADS = 1;
/**
 * PostgreSQL connections of the report pool: heavy reads beyond it wait for one of these, never
 * for the main pool's ten.
 */
const POSTGRES_REPORT_CONNECTIONS = 4;
/**
 * PostgreSQL connections of the export pool: a CSV export holds one (its cursor) for its whole
 * download, so this many exports run at once across all users; more wait for a connection.
 */
const POSTGRES_EXPORT_CONNECTIONS = 4;

/** Opens the configured database and brings its schema up to date before anyone uses it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openSqlite(path.join(options.dataDir, 'linkaudit.db'), {
        readThreads: options.sqliteReadThreads ?? DEFAULT_SQLITE_READ_THREADS,
        reportReadThreads: options.sqliteReportReadThreads ?? DEFAULT_SQLITE_REPORT_READ_THREADS,
        exportReadThreads: options.sqliteExportReadThreads ?? DEFAULT_SQLITE_EXPORT_READ_THREADS,
      });
  await migrateToLatest(handle.db, handle.dialect);
  return handle;
}

/** SQLite in worker threads (dialects/threaded-sqlite.ts): queries never stall the event loop. */
function openSqlite(
  filename: string,
  threads: { readThreads: number; reportReadThreads: number; exportReadThreads: number },
): DatabaseHandle {
  mkdirSync(path.dirname(filename), { recursive: true });
  const sqlite = new ThreadedSqlite({ filename, ...threads });
  const db = new Kysely<Database>({ dialect: sqlite.dialect('main') });
  const reportDb = new Kysely<Database>({ dialect: sqlite.dialect('report') });
  const exportDb = new Kysely<Database>({ dialect: sqlite.dialect('export') });
  return {
    db,
    reportDb,
    exportDb,
    dialect: 'sqlite',
    close: () => closeAll(db, reportDb, exportDb),
  };
}

function openPostgres(connectionString: string): DatabaseHandle {
  // A cursor lets `.stream(n)` fetch n rows at a time (CSV exports) instead of the whole result.
  const postgres = (max: number) =>
    new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString, max }),
        cursor: Cursor,
      }),
    });
  const db = postgres(10);
  const reportDb = postgres(POSTGRES_REPORT_CONNECTIONS);
  const exportDb = postgres(POSTGRES_EXPORT_CONNECTIONS);
  return {
    db,
    reportDb,
    exportDb,
    dialect: 'postgres',
    close: () => closeAll(db, reportDb, exportDb),
  };
}

/** The main instance last: on SQLite the last one to go closes the threads (writer last). */
async function closeAll(db: Kysely<Database>, ...others: Array<Kysely<Database>>): Promise<void> {
  await Promise.all(others.map((other) => other.destroy()));
  await db.destroy();
}

const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/** Runs pending migrations; a failed one stops the start with its name and cause. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  // On PostgreSQL the migration tables live in the connection's own schema, so databases that
  // share a server through search_path (tests, tenants) never see each other's history.
  const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db) : undefined;
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Database migration${name} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * A scan whose links are fewer than this share of the links the statistics last counted leaves
 * them as they are: its rows do not change the shape the planner sees.
 */
const STATISTICS_REFRESH_SHARE = 0.1;

/**
 * Fresh planner statistics after a scan's results were written. SQLite has none until ANALYZE,
 * and without them it reads every link of a scan to find its few broken ones instead of starting
 * from the broken targets. Sampled statistics (analysis_limit) were tried and mislead it the same
 * way, so this is a full ANALYZE, whose cost grows with the file (8 ms at 22,000 links, 2.5 s at
 * 4 million) and which holds the writer meanwhile: it runs only when there are no statistics yet
 * or the scan added at least STATISTICS_REFRESH_SHARE of the links they counted (a scan of 100
 * links on a database of millions changes nothing a plan depends on). Answers whether it ran.
 * PostgreSQL's autovacuum analyzes on its own.
 */
export async function refreshStatistics(
  handle: DatabaseHandle,
  addedLinks: number,
): Promise<boolean> {
  if (handle.dialect !== 'sqlite') return false;
  const counted = await linksCountedByStatistics(handle.db);
  if (counted > 0 && addedLinks < counted * STATISTICS_REFRESH_SHARE) return false;
  await sql`ANALYZE`.execute(handle.db);
  return true;
}

/** The links the last ANALYZE counted (the first number of scan_links' statistics), 0 if none. */
async function linksCountedByStatistics(db: Kysely<Database>): Promise<number> {
  const exists = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (exists.rows.length === 0) return 0;
  const stat = await sql<{ stat: string }>`
    select stat from sqlite_stat1 where tbl = 'scan_links' limit 1`.execute(db);
  return Number(stat.rows[0]?.stat.split(' ')[0] ?? 0) || 0;
}

/** True when the database answers a trivial query. */
export async function isDatabaseReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = result.rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema; check search_path');
  return schema;
}
