// The rule worker yields the processor to the crawl. The crawl is a scan's critical path: it
// keeps fifty requests in flight, and every moment it waits to be scheduled, the network and
// the site wait too. The rules have slack: they may run thousands of pages behind the crawl
// (checks/quality-rules.ts) and catch up while it waits on the network. On two busy cores,
// with all rules on, the crawl's thread spent 1.5-1.8 s of a 10,000-page scan ready to run but
// not running (against 0.3 s with rules off); with the rule worker at nice 10, about 1.1 s,
// and the scan took ~3% less wall time. In the server it also keeps the rule workers of many
// scans from slowing the event loop that answers the API.
import { getPriority, setPriority } from 'node:os';

/** How far the rule worker's nice value is raised above its process's (19 is the lowest). */
export const rulesThreadNice = 10;

/**
 * Lowers the scheduling priority of the calling thread, and only of it. Linux only: there a
 * nice value belongs to each thread, while elsewhere it would lower the whole process. Returns
 * whether it did.
 */
export function lowerThreadPriority(by = rulesThreadNice): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(0, Math.min(19, getPriority(0) + by));
    return true;
  } catch {
    return false; // a sandbox that refuses it: the rules run at normal priority
  }
}
