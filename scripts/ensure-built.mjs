// `npm start` builds only what is missing or out of date, then the server starts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestModification(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory() ? newestModification(full) : statSync(full).mtimeMs,
    );
  }
  return newest;
}

// tsc -b is incremental: when nothing changed it returns in a moment.
run('npx', ['tsc', '-b', 'tsconfig.build.json']);
if (!existsSync(path.join(root, 'packages/server/build-info.json'))) {
  run('node', ['scripts/write-build-info.mjs']);
}
if (!existsSync(path.join(root, 'packages/engine/dist/rules/spelling/dictionary-en.snapshot'))) {
  run('node', ['scripts/write-dictionary-snapshot.mjs']);
}

const webIndex = path.join(root, 'packages/web/dist/index.html');
const webSources = ['packages/web/src', 'packages/web/public', 'packages/core/src'].map((dir) =>
  path.join(root, dir),
);
const webStale =
  !existsSync(webIndex) ||
  webSources.some((dir) => newestModification(dir) > statSync(webIndex).mtimeMs);
if (webStale) run('npm', ['run', 'build:web']);
