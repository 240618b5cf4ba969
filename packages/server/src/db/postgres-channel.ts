import { sql } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle } from './database.js';

/**
 * PostgreSQL's LISTEN/NOTIFY as a message channel between server processes: the database
 * statements of the realtime relay, kept with the other connection-level SQL of db/.
 */
export interface PostgresChannel {
  /** Sends `payload` to every process listening on the channel (this one included). */
  notify(payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens one LISTEN connection on `channel` (a fixed identifier of ours, never user input) and
 * hands every payload to `onMessage`; NOTIFY goes through the database's own pool.
 */
export async function openPostgresChannel(
  database: DatabaseHandle,
  databaseUrl: string,
  channel: string,
  onMessage: (payload: string) => void,
  onError: (error: Error) => void,
): Promise<PostgresChannel> {
  const listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  listener.on('error', onError);
  listener.on('notification', (message) => {
    if (message.payload) onMessage(message.payload);
  });
  await listener.query(`LISTEN ${channel}`);
  return {
    notify: async (payload) => {
      await sql`select pg_notify(${channel}, ${payload})`.execute(database.db);
    },
    close: () => listener.end(),
  };
}
