import type { Kysely } from 'kysely';
import { credentialsSealedKey } from '../../db/server-meta-keys.js';
import type { Database } from '../../db/schema.js';
import { resealedSettings } from './scan-credentials.js';
import type { SecretBox } from './secret-box.js';

/**
 * Seals the credentials that scans and schedules stored in clear before issue 36, once per
 * database, at start (not in a migration: migrations never see the key, which comes from the
 * configuration or DATA_DIR). Until it has run, answers already leave clear values out
 * (shownSettings) and the worker reads them either way (openedSettings). Idempotent: processes
 * starting together may both run it.
 */
export async function sealClearCredentials(db: Kysely<Database>, box: SecretBox): Promise<void> {
  const done = await db
    .selectFrom('server_meta')
    .select('value')
    .where('key', '=', credentialsSealedKey)
    .executeTakeFirst();
  if (done) return;
  for (const table of ['scans', 'schedules'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'settings_json'])
      .where((eb) =>
        eb.and([
          eb.or([
            eb('settings_json', 'like', '%"password":"%'),
            eb('settings_json', 'like', '%"fieldValue":"%'),
          ]),
          eb('settings_json', 'not like', '%"sealedCredentials"%'),
        ]),
      )
      .execute();
    for (const row of rows) {
      await db
        .updateTable(table)
        .set({ settings_json: resealedSettings(box, row.settings_json) })
        .where('id', '=', row.id)
        .execute();
    }
  }
  await db
    .insertInto('server_meta')
    .values({ key: credentialsSealedKey, value: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
}
