import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory of process trees, read from /proc (Linux; elsewhere 0, and no memory cap
 * applies). The browser's own processes are found by a marker in their main process's command
 * line, so a pool measures its browser and nothing else of the machine.
 */
interface ProcessEntry {
  pid: number;
  parent: number;
  rssBytes: number;
}

const pageSize = 4096;

function readProcesses(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      // After the command name in parentheses: state, ppid, … field 24 is rss in pages.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      entries.push({
        pid: Number(name),
        parent: Number(fields[1]),
        rssBytes: Number(fields[21]) * pageSize,
      });
    } catch {
      // (gone meanwhile)
    }
  }
  return entries;
}

/** The pid of the process whose command line holds `marker`, if any. */
export function findProcessByMarker(marker: string): number | undefined {
  for (const entry of readProcesses()) {
    try {
      const commandLine = readFileSync(`/proc/${entry.pid}/cmdline`, 'latin1');
      if (commandLine.includes(marker)) return entry.pid;
    } catch {
      // (gone meanwhile)
    }
  }
  return undefined;
}

/**
 * The memory `root` and every process below it hold: their proportional set sizes (a page the
 * browser's processes share is counted once over all of them, not once per process as summed
 * RSS would), or RSS where /proc has no smaps_rollup. Reading PSS makes the kernel walk each
 * process's mappings: read it every few pages, not continuously.
 */
export function treeMemoryBytes(root: number, proportional = true): number {
  const entries = readProcesses();
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of entries) {
    const list = children.get(entry.parent);
    if (list) list.push(entry);
    else children.set(entry.parent, [entry]);
  }
  let total = 0;
  const stack = entries.filter((entry) => entry.pid === root);
  while (stack.length > 0) {
    const entry = stack.pop()!;
    total += (proportional ? proportionalBytes(entry.pid) : undefined) ?? entry.rssBytes;
    stack.push(...(children.get(entry.pid) ?? []));
  }
  return total;
}

function proportionalBytes(pid: number): number | undefined {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1');
    const kilobytes = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}
