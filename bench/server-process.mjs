// The built LinkAudit server (packages/server/dist/main.js) as its own process, as operators run
// it: shared by the benchmarks that measure the server (reports.mjs) and the report screen in a
// browser (report-ui.mjs).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const SERVER_MAIN = path.resolve(import.meta.dirname, '../packages/server/dist/main.js');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on right now (the OS picks it), so the server's address is known first. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a benchmarked server: its own data folder and port, quiet logs, the local
 * site allowed, no sample report, and sign-in limits a benchmark's many requests stay under.
 */
export function benchServerEnvironment(dataDir, port) {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
    SAMPLE_REPORT: '0',
    AUTH_RATE_LIMIT: '1000',
  };
}

/** Starts the server with `environment` (PORT included); resolves once it answers. */
export async function startServer(environment) {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: environment,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${environment.PORT}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/ServerVersion`)).ok) return { child, origin };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start within 20 s');
}

/** SIGTERM, then SIGKILL when it has not exited within 10 s. */
export async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
