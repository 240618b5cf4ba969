import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import type { ScanUpdate, ScanUpdates } from '../scans/scan-updates.js';

const channel = 'linkaudit_scans';

/**
 * Carries scan updates between processes on PostgreSQL: each publish is a NOTIFY; one LISTEN
 * connection per process hands the other processes' updates to its hub. Answers a stop function.
 */
export async function startPostgresRelay(
  database: DatabaseHandle,
  databaseUrl: string,
  updates: ScanUpdates,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  const origin = randomUUID();
  const listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  listener.on('error', (error) => log.warn({ err: error }, 'scan update listener failed'));
  listener.on('notification', (message) => {
    if (!message.payload) return;
    const { from, update } = JSON.parse(message.payload) as { from: string; update: ScanUpdate };
    if (from !== origin) updates.deliver(update);
  });
  await listener.query(`LISTEN ${channel}`);
  updates.relay = (update) => {
    const payload = JSON.stringify({ from: origin, update });
    sql`select pg_notify(${channel}, ${payload})`
      .execute(database.db)
      .catch((error: unknown) => log.warn({ err: error }, 'scan update notify failed'));
  };
  return async () => {
    updates.relay = undefined;
    await listener.end();
  };
}
