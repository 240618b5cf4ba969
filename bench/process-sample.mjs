// Reads a live process's CPU and memory, and its descendants, from /proc: the benches that run
// the server as its own process (scale.mjs, load.mjs) sample it and the scan processes it starts.
import { readFileSync, readdirSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU ms (user + sys, all threads) and resident MB of a live process; null once it is gone. */
export function processSample(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssMb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
    const hwmMb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
    return { cpuMs, rssMb, hwmMb };
  } catch {
    return null;
  }
}

/** The process's direct children (of every thread); none once it is gone. */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/** Every descendant of the process, children before their own children. */
export function descendants(pid) {
  const found = [];
  for (const child of childPids(pid)) found.push(child, ...descendants(child));
  return found;
}

/** The resident memory of a process's descendants (MB), e.g. the server's scan processes. */
export function descendantsMb(pid) {
  let total = 0;
  for (const child of descendants(pid)) total += processSample(child)?.rssMb ?? 0;
  return total;
}

/** PostgreSQL's own processes (its backends do the database's share of a scan's work). */
export function postgresPids() {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}
