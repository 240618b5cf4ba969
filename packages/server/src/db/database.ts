import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { createThreadedSqliteDialect } from './dialects/threaded-sqlite.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; without one the embedded SQLite file in dataDir is used. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite connections that serve reads, each in its own thread (SQLITE_READ_THREADS). */
  sqliteReadThreads?: number | undefined;
}

export const DEFAULT_SQLITE_READ_THREADS = 2;

/** Opens the configured database and brings its schema up to date before anyone uses it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openSqlite(
        path.join(options.dataDir, 'linkaudit.db'),
        options.sqliteReadThreads ?? DEFAULT_SQLITE_READ_THREADS,
      );
  await migrateToLatest(handle.db, handle.dialect);
  return handle;
}

/** SQLite in worker threads (dialects/threaded-sqlite.ts): queries never stall the event loop. */
function openSqlite(filename: string, readThreads: number): DatabaseHandle {
  mkdirSync(path.dirname(filename), { recursive: true });
  const db = new Kysely<Database>({
    dialect: createThreadedSqliteDialect({ filename, readThreads }),
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(connectionString: string): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // A cursor lets `.stream(n)` fetch n rows at a time (CSV exports) instead of the whole result.
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
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
 * Fresh planner statistics after a scan's results were written. SQLite has none until ANALYZE,
 * and without them it reads every link of a scan to find its few broken ones instead of starting
 * from the broken targets. Sampled statistics (analysis_limit) were tried and mislead it the same
way, so this is a full ANALYZE: its cost grows with the file (8 ms at 22,000 links).
 * PostgreSQL's autovacuum analyzes on its own.
 */
export async function refreshStatistics(handle: DatabaseHandle): Promise<void> {
  if (handle.dialect !== 'sqlite') return;
  await sql`ANALYZE`.execute(handle.db);
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
