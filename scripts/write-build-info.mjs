// Stamps the server build with its version (1.0 + git short hash) and the time it was assembled.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
let hash = 'dev';
try {
  hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
} catch {
  // not a git checkout (an unpacked release): keep "dev"
}
const info = { version: `1.0${hash}`, assembledTime: new Date().toISOString() };
writeFileSync(
  path.join(root, 'packages/server/build-info.json'),
  `${JSON.stringify(info, null, 2)}\n`,
);
