// Rebuilds the checked-in output (dist/) of the render test apps from their sources:
//   node packages/engine/test-sites/render/build.mjs
// The built output is checked in so the scenario test starts no bundler (a Vite build of both
// apps takes seconds of the suite's budget; the output changes only when the sources do).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const app of ['react-app', 'vue-app']) {
  const root = path.join(here, app);
  await build({ root, configFile: path.join(root, 'vite.config.mjs') });
  console.log(`built ${app}/dist`);
}
