// The rule worker yields the processor to the crawl while the crawl is ahead, and takes its
// normal share back whenever the crawl waits for it.
//
// The crawl is a scan's critical path while it runs: it keeps fifty requests in flight, and every
// moment it waits to be scheduled, the network and the site wait too. The rules have slack: they
// may run thousands of pages behind the crawl (checks/quality-rules.ts) and catch up while it
// waits on the network. On two busy cores, with all rules on, the crawl's thread spent 1.5-1.8 s
// of a 10,000-page scan ready to run but not running (against 0.3 s with rules off); with the
// rule worker at nice 10, about 1.1 s, and the scan took ~3% less wall time.
//
// But a nice value of 10 gives a thread a tenth of the share of a normal one: on a machine whose
// cores other work keeps busy, the rules crept along at a few percent of a core (one scan took
// 1,040 s of wall time for 24 s of CPU), the crawl filled the backlog and stopped, and after the
// crawl the rules were all that was left to wait for. So the lowered priority lasts only while
// the crawl is ahead: when the crawl waits for the rules (their backlog is full, or the crawl
// has ended), the worker returns to its process's priority. Returning needs a privilege Linux
// gives only to some (CAP_SYS_NICE, or RLIMIT_NICE); a worker that could not take its priority
// back never gives it up.
import { getPriority, setPriority } from 'node:os';

/** How far the rule worker's nice value is raised above its process's (19 is the lowest). */
export const rulesThreadNice = 10;

/**
 * The calling thread's scheduling priority, and only its own. Linux only: there a nice value
 * belongs to each thread, while elsewhere it would change the whole process.
 */
export class ThreadPriority {
  private readonly base: number;
  private readonly lowest: number;
  /** Whether this thread may come back to `base` after lowering its priority. */
  readonly canReturn: boolean;
  private lowered = false;

  constructor(by = rulesThreadNice) {
    this.base = process.platform === 'linux' ? safe(() => getPriority(0), 0) : 0;
    this.lowest = Math.min(19, this.base + by);
    this.canReturn = process.platform === 'linux' && this.lowest > this.base && probe(this.base);
  }

  /** Lowers this thread's priority while `yieldToCrawl`, else its process's; true if lowered. */
  follow(yieldToCrawl: boolean): boolean {
    const lower = yieldToCrawl && this.canReturn;
    if (lower !== this.lowered) {
      // A refusal (a sandbox) leaves the thread where it was; it is then tried again next time.
      if (safe(() => (setPriority(0, lower ? this.lowest : this.base), true), false))
        this.lowered = lower;
    }
    return this.lowered;
  }
}

/** Lowers the thread's priority by one step and returns it: whether that was allowed. */
function probe(base: number): boolean {
  if (!safe(() => (setPriority(0, base + 1), true), false)) return false;
  return safe(() => (setPriority(0, base), true), false);
}

function safe<T>(work: () => T, otherwise: T): T {
  try {
    return work();
  } catch {
    return otherwise;
  }
}
