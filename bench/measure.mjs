// Runs one tool as a child process and measures it from the outside: wall time from spawn to
// exit, and peak RSS from the kernel's high-water mark (VmHWM in /proc/<pid>/status), polled
// every 50 ms. VmHWM only grows, so polling misses at most the last 50 ms of growth.
// CPU time (user + system) comes from the runner's own count of its reaped children: unlike wall
// time it hardly changes when other work shares the machine, so it is what to compare there.
//
// A tool may re-launch itself (our CLI re-runs node with GC flags), so the whole process tree
// is measured: the peak is the sum of every process's own peak, an upper bound of what the tool
// held at once (the launcher's share is nearly constant, so the bound is tight).
//
// Each tool runs in its own process group, so a timeout or the runner's exit can kill the tool
// together with anything it started; every child is tracked for that final clean-up.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';

const POLL_MS = 50;
const live = new Map(); // child → whether it leads its own process group

// Registers a child started elsewhere (the site server) for the final clean-up.
export function trackChild(child) {
  live.set(child, false);
  child.once('exit', () => live.delete(child));
  return child;
}

// Kills every tracked child, with its process group when it leads one.
export function killAllChildren() {
  for (const [child, group] of live) killTree(child, group);
  live.clear();
}

function killTree(child, group) {
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// Peak resident set size of a live process in MB, or null when it is already gone.
export function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// Direct children of a process, from every one of its threads' `children` lists.
function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return []; // the process (or a thread) ended while we looked
  }
}

function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) pids.push(...childrenOf(pids[i]));
  return pids;
}

// Keeps, for every process of the tree, the highest VmHWM seen while it ran.
function pollPeak(rootPid) {
  const peaks = new Map();
  const read = () => {
    for (const pid of processTree(rootPid)) {
      const mb = peakRssMb(pid);
      if (mb !== null && mb > (peaks.get(pid) ?? 0)) peaks.set(pid, mb);
    }
  };
  read();
  const timer = setInterval(read, POLL_MS);
  return () => {
    read();
    clearInterval(timer);
    const values = [...peaks.values()];
    return {
      peakRssMb: values.reduce((sum, mb) => sum + mb, 0),
      processes: values.length,
      largestProcessRssMb: Math.max(0, ...values),
    };
  };
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: the unit of /proc's CPU times on Linux

// CPU milliseconds (user + system) of every child this process has waited for: cutime and cstime,
// fields 16 and 17 of /proc/self/stat (counted after the closing parenthesis of the name).
function reapedChildrenCpuMs() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

// Runs `command args` with stdout/stderr written straight to files (the runner never buffers a
// tool's output). Resolves with { exitCode, signal, wallMs, cpuMs, peakRssMb, processes,
// largestProcessRssMb, timedOut }. (cpuMs assumes no other child of the runner ends meanwhile.)
// `ownSession: false` keeps the tool in the runner's session, so in the scheduler's group of the
// runner's other children (Linux autogroups: a new session is a new group, which gets its share
// of the processor whatever the nice values inside it); a timeout then kills the tool alone.
export function runMeasured(
  command,
  args,
  { cwd, env, timeoutMs, stdoutFile, stderrFile, ownSession = true },
) {
  const out = openSync(stdoutFile, 'w');
  const err = openSync(stderrFile, 'w');
  const cpuBefore = reapedChildrenCpuMs();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env,
    detached: ownSession,
    stdio: ['ignore', out, err],
  });
  live.set(child, ownSession);
  const stopPolling = pollPeak(child.pid);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(child, ownSession);
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      live.delete(child);
      closeSync(out);
      closeSync(err);
      return stopPolling();
    };
    child.once('error', (error) => {
      finish();
      reject(error);
    });
    child.once('exit', (exitCode, signal) => {
      const wallMs = performance.now() - started;
      const memory = finish();
      if (timedOut) killTree(child, ownSession); // whatever the tool left behind in its group
      const cpuMs = reapedChildrenCpuMs() - cpuBefore;
      resolve({ exitCode, signal, wallMs, cpuMs, ...memory, timedOut });
    });
  });
}
