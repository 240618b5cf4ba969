// `npm start` builds only what is missing or out of date, then the server starts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * A long build step said out loud (issue 37: the first `npm start` built the web app for 90 s
 * with nothing on screen): what is built and why, a line every 15 s while it runs, the time taken.
 */
async function step(what, command, args) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  console.log(`LinkAudit: ${what}…`);
  const ticker = setInterval(() => console.log(`LinkAudit: ${what}… ${seconds()} s`), 15_000);
  const status = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
  clearInterval(ticker);
  if (status !== 0) process.exit(status);
  console.log(`LinkAudit: ${what}: done in ${seconds()} s.`);
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
if (existsSync(path.join(root, 'packages/server/dist/main.js'))) {
  run('npx', ['tsc', '-b', 'tsconfig.build.json']);
} else {
  await step('building the server (first start)', 'npx', ['tsc', '-b', 'tsconfig.build.json']);
}
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
if (webStale) {
  const why = existsSync(webIndex) ? 'its sources changed' : 'first start, about a minute or two';
  await step(`building the web app (${why})`, 'npm', ['run', 'build:web']);
}
