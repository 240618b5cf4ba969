import { fileURLToPath } from 'node:url';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';

type WebServer = Exclude<PlaywrightTestConfig['webServer'], unknown[] | undefined>;
import base from '../../playwright.config.js';

// Screenshots of every screen, both languages, desktop and phone width:
//   npx playwright test --config e2e/screenshots/screenshots.config.ts
// Output: SCREENSHOT_DIR (default /tmp/linkaudit-screens; the suite wipes test-results). With PUBLISH=1 the pictures of the
// /screenshots page are also written to packages/web/public/screenshots/<language>/.
export default defineConfig({
  ...base,
  testDir: '.',
  testIgnore: [],
  timeout: 180_000,
  outputDir: '../../test-results/screenshots-run',
  webServer: {
    ...(base.webServer as WebServer),
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  },
});
