#!/usr/bin/env node
// The `linkaudit` launcher. A crawl allocates many short-lived objects; V8's default young
// generation and heap growth let the process reach ~350 MB on a 50,000-page site although the
// live data stays under 75 MB. These two flags keep the peak near 235 MB there (heap growth of
// 35% instead of 20% saves full collections but peaks at 250–255 MB; docs/benchmarks.md).
// Allocation-site pretenuring is off: when V8 sees a page's objects survive a young collection
// (a DOM built across one, requests in flight) it allocates every later object of the same site
// in the old generation, where they die and fill it: up to 7× the full collections, a third
// more CPU and 25 MB more memory, decided by timing so that runs of the same scan varied by as
// much. The command re-runs itself with these flags unless they are already set.
import { spawn } from 'node:child_process';
import { crawlNodeFlags as memoryFlags } from '@linkaudit/engine/crawl-node-flags';
const hasFlags = process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size'));

if (hasFlags || process.env.LINKAUDIT_NO_RESPAWN === '1') {
  await import('./command.js');
} else {
  const child = spawn(
    process.execPath,
    [...memoryFlags, ...process.execArgv, ...process.argv.slice(1)],
    {
      stdio: 'inherit',
    },
  );
  // Ctrl-C reaches the child from the terminal itself; here it must not kill the launcher first.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 2 : 1)));
}
