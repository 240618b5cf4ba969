// The generated site's server (server.mjs) as a child process that prints its address: shared by
// the benchmarks that crawl a site from a fresh process per run (rules-cost.mjs, hints.mjs).
import { spawn } from 'node:child_process';
import path from 'node:path';

/** Starts server.mjs on `siteDir`; resolves with the child and its origin once it listens. */
export function spawnSiteServer(siteDir) {
  const server = spawn(process.execPath, [path.join(import.meta.dirname, 'server.mjs'), siteDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(chunk));
      if (match) resolve({ server, origin: match[1] });
    });
    server.once('exit', (code) => reject(new Error(`site server exited with ${code}`)));
  });
}
