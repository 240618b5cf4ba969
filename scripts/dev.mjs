// `npm run dev`: TypeScript in watch mode, the server restarting on every rebuild, and Vite with
// hot reload on http://localhost:5173 (API calls proxied to the server on :3000).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const initial = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (initial.status !== 0) process.exit(initial.status ?? 1);

const children = [
  spawn('npx', ['tsc', '-b', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(
    'node',
    [
      '--watch-path=packages/server/dist',
      '--watch-path=packages/engine/dist',
      '--watch-path=packages/core/dist',
      'packages/server/dist/main.js',
    ],
    { cwd: root, stdio: 'inherit' },
  ),
  spawn('npx', ['vite'], { cwd: path.join(root, 'packages/web'), stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
