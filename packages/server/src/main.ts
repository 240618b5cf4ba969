#!/usr/bin/env node
// Before every other import: V8's heap settings for the server (heap-tuning.ts says why).
import './heap-tuning.js';
import { enableCompileCache } from 'node:module';
import { setEnterpriseUrlsPerScan } from '@linkaudit/core';
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { readBuildInfo } from './build-info.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { adminUsage, runAdminCommand } from './modules/accounts/admin-command.js';
import { planUsage, runPlanCommand } from './modules/accounts/plan-command.js';
import {
  billingUsage,
  runBillingCommand,
  runVoucherCommand,
  voucherUsage,
} from './modules/billing/billing-command.js';

// Every scan starts a rule worker that loads ~70 modules (html-validate, the spell checker …);
// with Node's compile cache on, which the worker shares (rules/rule-thread.ts), they are
// compiled once per machine rather than once per scan. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
enableCompileCache();

const roles = ['all', 'api', 'worker', 'scheduler'] as const;
type Role = (typeof roles)[number];

const usage = [
  'usage: linkaudit-server [--role all|api|worker|scheduler]   serve (default role: all)',
  `       ${adminUsage.replace('usage: ', '')}`,
  `       ${planUsage.replace('usage: ', '')}`,
  `       ${billingUsage.replace('usage: ', '')}`,
  `       ${voucherUsage.replace('usage: ', '')}`,
].join('\n');

/** A mistake of the person at the terminal: printed as a message, without a stack. */
class CommandError extends Error {}

/** `linkaudit-server [--role …]` serves; `linkaudit-server admin …` runs an operator command. */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { role: { type: 'string', default: 'all' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const [command, ...args] = positionals;
  if (command === 'admin') return operatorCommand(runAdminCommand, args);
  if (command === 'plan') return operatorCommand(runPlanCommand, args);
  if (command === 'billing') return operatorCommand(runBillingCommand, args);
  if (command === 'voucher') return operatorCommand(runVoucherCommand, args);
  if (command !== undefined) throw new CommandError(`unknown command "${command}"\n${usage}`);
  const role = values.role as Role;
  if (!roles.includes(role)) {
    throw new ConfigError([`--role: must be one of ${roles.join(', ')} (got "${values.role}")`]);
  }
  await serve(role);
}

/** Starts the server in the chosen role; the embedded default ("all") needs no other service. */
async function serve(role: Role): Promise<void> {
  const config = loadConfig();
  setEnterpriseUrlsPerScan(config.scans.enterpriseUrlsPerScan);
  const database = await openDatabase(config);
  // Workers run in "all" and "worker"; a worker process serves no HTTP (it only drains the queue).
  const runsWorkers = role === 'all' || role === 'worker';
  const app = await buildApp({
    config,
    database,
    buildInfo: readBuildInfo(),
    workerConcurrency: runsWorkers ? config.scans.workerConcurrency : 0,
    runsScheduler: role === 'all' || role === 'scheduler',
  });

  const shutdown = async (signal: string): Promise<void> => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', (signal) => void shutdown(signal));
  process.once('SIGTERM', (signal) => void shutdown(signal));

  if (role === 'worker' || role === 'scheduler') {
    await app.ready();
    app.log.info(
      role === 'worker'
        ? `LinkAudit worker (${config.scans.workerConcurrency} scans), ${database.dialect} database`
        : `LinkAudit scheduler, ${database.dialect} database`,
    );
    return;
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`LinkAudit (${role}) on ${config.publicUrl}, ${database.dialect} database`);
}

type OperatorCommand = (db: DatabaseHandle['db'], args: string[]) => Promise<string>;

async function operatorCommand(command: OperatorCommand, args: string[]): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    console.log(await command(database.db, args));
  } catch (error) {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof CommandError;
  console.error(known ? error.message : error);
  process.exit(1);
});
