// Starts the built server for the browser tests on 127.0.0.1 with a throw-away data directory.
// The directory is E2E_DATA_DIR when the Playwright config names it, so tests can read the mail
// outbox (DATA_DIR/mail/*.eml) for confirmation and reset links.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startExternalLoginProvider } from './external-login-provider.mjs';

const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'linkaudit-e2e-'));
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
// External logins (issue 8): a real OpenID provider on 127.0.0.1, offered as "VideoSite"; tests
// choose who signs in there through its control endpoint (see e2e/external-login-provider.mjs).
const publicUrl = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;
const externalLogins = await startExternalLoginProvider({ publicUrl, dataDir });
const server = spawn(process.execPath, ['packages/server/dist/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: publicUrl,
    // The suite signs in and registers far more often than a person would in a minute.
    AUTH_RATE_LIMIT: '10000',
    // The scan tests crawl a site served on 127.0.0.1 (e2e/test-site.ts); other private
    // addresses stay refused, so the refusal is tested too.
    LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
    // Scans keep the server's priority here: the browser shares the cores and the tests wait.
    LINKAUDIT_SCAN_NICENESS: '0',
    // The suite's users run two scans side by side as before the per-user cap (issue 36; the
    // cap and the turns are proven by the server's fair-queue.test.ts).
    SCAN_RUNNING_PER_USER: 'Free=2',
    ...externalLogins.environment,
  },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', async (code) => {
  await externalLogins.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
