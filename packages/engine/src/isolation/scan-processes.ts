import { fork, type ChildProcess } from 'node:child_process';
import { getCompileCacheDir } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import type { Socket } from 'node:net';
import { crawlNodeFlags } from '../crawl-node-flags.js';

// Compiled, the engine forks its compiled child; run from its TypeScript sources (the tests),
// it forks the source with Node's type stripping and a hook that finds `.ts` for `.js` imports.
const fromSources = import.meta.url.endsWith('.ts');
const childEntry = new URL(`./isolated-scan-child.${fromSources ? 'ts' : 'js'}`, import.meta.url);
const sourceFlags = fromSources
  ? [
      '--conditions=source',
      '--experimental-transform-types',
      '--disable-warning=ExperimentalWarning',
      `--import=${new URL('./source-hooks.ts', import.meta.url).href}`,
    ]
  : [];

/**
 * A scan's process runs at a lower priority than the server that started it (nice +10 by
 * default, LINKAUDIT_SCAN_NICENESS to change, 0 to keep the server's): where the cores are all
 * busy, the API answers first and the crawl takes what is left (a crawl on an idle machine loses
 * nothing). Linux gives the nice value to the process's main thread, and the threads it starts
 * later (the rules' worker) inherit it. Set when a scan takes the process, so the spare started
 * ahead follows the setting of the moment.
 */
function lowerPriority(child: ChildProcess): void {
  const configured = Number(process.env.LINKAUDIT_SCAN_NICENESS ?? 10);
  const by = Number.isInteger(configured) ? Math.max(0, Math.min(19, configured)) : 10;
  try {
    if (child.pid !== undefined) setPriority(child.pid, Math.min(19, getPriority() + by));
  } catch {
    // Not allowed here (some containers): the scan runs at the server's priority.
  }
}

function startScanProcess(memoryLimitMb: number): ChildProcess {
  // The process compiles its modules once per machine, as its parent does, not once per scan.
  const compileCache = getCompileCacheDir();
  return fork(childEntry, [], {
    execArgv: [...crawlNodeFlags, `--max-old-space-size=${memoryLimitMb}`, ...sourceFlags],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Host names are resolved on libuv's pool, 4 threads by default (the CLI sets 64 too).
    env: {
      ...process.env,
      UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '64',
      ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}),
    },
  });
}

/**
 * One process started ahead, its engine loaded, waiting for a scan: loading the engine takes a
 * child ~0.3-0.5 s, which a scan then does not wait for. Each scan takes it and leaves a new one.
 * It holds no reference on this process (which may exit; the spare then ends with it).
 */
let spare: { child: ChildProcess; memoryLimitMb: number } | undefined;

/** A process for one scan, with this heap cap: the spare when it fits, else a new one. */
export function takeScanProcess(memoryLimitMb: number): ChildProcess {
  const ready = spare;
  spare = undefined;
  let child: ChildProcess | undefined;
  if (ready && ready.memoryLimitMb === memoryLimitMb && ready.child.connected) child = ready.child;
  else ready?.child.kill('SIGKILL');
  child ??= startScanProcess(memoryLimitMb);
  lowerPriority(child);
  holdOpen(child, true);
  try {
    spare = { child: startScanProcess(memoryLimitMb), memoryLimitMb };
    holdOpen(spare.child, false);
  } catch {
    // No spare this time (no memory or processes left): the next scan starts its own.
  }
  return child;
}

/** The spare's process id, if there is one (tests tell it from a scan's). */
export function spareProcessId(): number | undefined {
  return spare?.child.pid;
}

function holdOpen(child: ChildProcess, hold: boolean): void {
  const handles = [child, child.channel, child.stderr as Socket | null];
  for (const handle of handles) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
  if (!hold) child.on('error', () => undefined);
}
