import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Browser tests drive Debian's Chromium (no browser download) against the built product,
// started on its own port with a throw-away data directory.
const port = Number(process.env.E2E_PORT ?? 3310);
const isRoot = process.getuid?.() === 0;
// The server's data directory, known to the tests so they can read its mail outbox.
const dataDir = path.join(tmpdir(), `linkaudit-e2e-${port}`);
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'e2e',
  // Screenshots of every screen are taken on demand (e2e/screenshots/), not in the suite.
  testIgnore: ['screenshots/**'],
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            ...(isRoot ? ['--no-sandbox'] : []),
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node e2e/start-server.mjs',
    url: `http://127.0.0.1:${port}/healthcheck`,
    env: { PORT: String(port), E2E_DATA_DIR: dataDir },
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
