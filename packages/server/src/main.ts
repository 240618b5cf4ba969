import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { readBuildInfo } from './build-info.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';

const roles = ['all', 'api', 'worker', 'scheduler'] as const;
type Role = (typeof roles)[number];

function readRole(): Role {
  const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
  const role = values.role as Role;
  if (!roles.includes(role)) {
    throw new ConfigError([`--role: must be one of ${roles.join(', ')} (got "${values.role}")`]);
  }
  return role;
}

/** Starts the server in the chosen role; the embedded default ("all") needs no other service. */
async function main(): Promise<void> {
  const role = readRole();
  const config = loadConfig();
  const database = await openDatabase(config);
  const app = await buildApp({ config, database, buildInfo: readBuildInfo() });

  const shutdown = async (signal: string): Promise<void> => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', (signal) => void shutdown(signal));
  process.once('SIGTERM', (signal) => void shutdown(signal));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`LinkAudit (${role}) on ${config.publicUrl}, ${database.dialect} database`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
