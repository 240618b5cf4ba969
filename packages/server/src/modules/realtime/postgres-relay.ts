import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { scanUpdateSchema } from '@linkaudit/core';
import type { DatabaseHandle } from '../../db/database.js';
import { openPostgresChannel } from '../../db/postgres-channel.js';
import type { ScanUpdates } from '../scans/scan-updates.js';

const channel = 'linkaudit_scans';

/** A NOTIFY payload: the update and the process it came from. */
const relayedUpdateSchema = z.object({ from: z.string(), update: scanUpdateSchema });

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
  const relay = await openPostgresChannel(
    database,
    databaseUrl,
    channel,
    (payload) => {
      const relayed = relayedUpdateSchema.safeParse(JSON.parse(payload));
      if (relayed.success && relayed.data.from !== origin) updates.deliver(relayed.data.update);
    },
    (error) => log.warn({ err: error }, 'scan update listener failed'),
  );
  updates.relay = (update) => {
    relay
      .notify(JSON.stringify({ from: origin, update }))
      .catch((error: unknown) => log.warn({ err: error }, 'scan update notify failed'));
  };
  return async () => {
    updates.relay = undefined;
    await relay.close();
  };
}
