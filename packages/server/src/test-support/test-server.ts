import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';

export type TestDialect = 'sqlite' | 'postgres';

/** The dialects a database test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDialects(): TestDialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

if (!process.env.TEST_DATABASE_URL) {
  console.warn('TEST_DATABASE_URL is not set: PostgreSQL variants of server tests are skipped.');
}

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  database: DatabaseHandle;
  stop(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 with a fresh database: a new SQLite file, or a new schema in the
 * PostgreSQL test database, dropped again on stop.
 */
export async function startTestServer(
  dialect: TestDialect,
  environment: Record<string, string> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linkaudit-test-'));
  const schema = dialect === 'postgres' ? await createPostgresSchema() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    ...environment,
  });
  const database = await openDatabase(config);
  const app = await buildApp({
    config,
    database,
    buildInfo: { version: '1.0test1234', assembledTime: '2026-11-21T05:00:00.000Z' },
  });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    baseUrl,
    database,
    stop: async () => {
      await app.close();
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
