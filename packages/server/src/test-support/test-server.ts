import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { EngineOptions } from '@linkaudit/engine';
import { buildApp } from '../app.js';
import type { Clock } from '../clock.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import type { ScanEngine } from '../modules/scans/scan-engine.js';

export type TestDialect = 'sqlite' | 'postgres';

/** The dialects a database test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDialects(): TestDialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

if (!process.env.TEST_DATABASE_URL) {
  console.warn('TEST_DATABASE_URL is not set: PostgreSQL variants of server tests are skipped.');
}

/** Real time plus an offset the test moves forward (expiry of codes and tokens). */
export class TestClock implements Clock {
  #offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  advance(milliseconds: number): void {
    this.#offsetMs += milliseconds;
  }
}

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  config: Config;
  database: DatabaseHandle;
  dataDir: string;
  clock: TestClock;
  stop(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 with a fresh database: a new SQLite file, or a new schema in the
 * PostgreSQL test database, dropped again on stop. PUBLIC_URL is the server's own address, so
 * links in mails lead back to it; pass PORT to know the address before the server starts.
 */
export async function startTestServer(
  dialect: TestDialect,
  environment: Record<string, string> = {},
  engineOptions?: Partial<EngineOptions>,
  /** Lets a test watch the server's queries (a Kysely plugin) without changing what they do. */
  observeDatabase?: (database: DatabaseHandle) => DatabaseHandle,
  /** Lets a test watch the scans run (it wraps the engine) without changing what they do. */
  observeEngine?: (engine: ScanEngine) => ScanEngine,
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkaudit-test-'));
  const schema = dialect === 'postgres' ? await createPostgresSchema() : undefined;
  const port = environment.PORT ?? String(await freePort());
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_RATE_LIMIT: '1000',
    // Other tests count and time their own scans; sample-report.test.ts turns it on.
    SAMPLE_REPORT: '0',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    ...environment,
  });
  const database = await openDatabase(config);
  const clock = new TestClock();
  const app = await buildApp({
    config,
    database: observeDatabase ? observeDatabase(database) : database,
    clock,
    workerPollMs: 100,
    // Tests fire schedules with app.scheduler.tick() after moving the clock.
    runsScheduler: false,
    ...(engineOptions ? { engineOptions } : {}),
    ...(observeEngine ? { observeEngine } : {}),
    buildInfo: { version: '1.0test1234', assembledTime: '2026-11-21T05:00:00.000Z' },
  });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: Number(port) });
  return {
    app,
    baseUrl,
    config,
    database,
    dataDir,
    clock,
    stop: async () => {
      await app.close();
      await database.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestDatabase {
  database: DatabaseHandle;
  /** Where it is, for a server process of its own: DATA_DIR (and DATABASE_URL on PostgreSQL). */
  environment: { DATA_DIR: string; DATABASE_URL?: string };
  /** Closes the database and removes it (the SQLite file's folder, or the PostgreSQL schema). */
  drop(): Promise<void>;
}

/** A fresh, migrated database without a server, for repository tests. */
export async function openTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkaudit-db-'));
  const schema = dialect === 'postgres' ? await createPostgresSchema() : undefined;
  const database = await openDatabase({ dataDir, databaseUrl: schema?.url });
  return {
    database,
    environment: { DATA_DIR: dataDir, ...(schema ? { DATABASE_URL: schema.url } : {}) },
    drop: async () => {
      await database.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function createPostgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `t_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withClient(baseUrl, (client) => client.query(`create schema ${name}`));
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return {
    url: url.href,
    drop: () => withClient(baseUrl, (client) => client.query(`drop schema ${name} cascade`)),
  };
}

async function withClient(
  url: string,
  work: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A port nobody listens on right now (the OS picks it), for servers whose address must be known first. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
