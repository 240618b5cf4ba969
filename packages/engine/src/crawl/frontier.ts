import { HostPacing, type HostPace } from '../fetch/host-pacing.js';
import type { Target } from './targets.js';

interface HostQueue {
  host: string;
  items: Target[];
  head: number;
  active: number;
  /** Its pause and current concurrency limit (AIMD, at most the configured cap). */
  pace: HostPace;
}

/**
 * Targets waiting to be fetched, one FIFO queue per host (breadth first within a host), taken
 * round-robin across hosts so one slow external host cannot hold the scan, each host limited to
 * its own number of concurrent requests, which backs off when the host answers 429 (HostPacing);
 * a host paused by its Retry-After starts nothing until the pause ends.
 */
export class Frontier {
  private readonly hosts = new Map<string, HostQueue>();
  private readonly waiting: HostQueue[] = [];
  private cursor = 0;
  private queued = 0;

  constructor(
    private readonly capFor: (target: Target) => number,
    private readonly pacing = new HostPacing({
      defaultLimit: Number.POSITIVE_INFINITY,
      patienceMs: 0,
      hostBudgetMs: Number.POSITIVE_INFINITY,
      onResume: () => undefined,
    }),
  ) {}

  get size(): number {
    return this.queued;
  }

  push(target: Target): void {
    let queue = this.hosts.get(target.host);
    if (!queue) {
      const pace = this.pacing.of(target.host, this.capFor(target));
      if (target.internal) this.pacing.exemptFromBudget(target.host);
      queue = { host: target.host, items: [], head: 0, active: 0, pace };
      this.hosts.set(target.host, queue);
    }
    if (queue.head === queue.items.length) this.waiting.push(queue);
    queue.items.push(target);
    this.queued++;
  }

  /** The next target whose host has a free slot, or undefined. */
  take(): Target | undefined {
    for (let tried = 0; tried < this.waiting.length; tried++) {
      const index = (this.cursor + tried) % this.waiting.length;
      const queue = this.waiting[index];
      if (!queue || queue.active >= queue.pace.cap) continue;
      if (queue.pace.pausedUntil > 0 && this.pacing.holds(queue.pace)) continue;
      const target = queue.items[queue.head++];
      if (!target) continue;
      queue.active++;
      this.queued--;
      if (queue.head === queue.items.length) {
        queue.items = [];
        queue.head = 0;
        this.waiting.splice(index, 1);
        this.cursor = index;
      } else {
        this.cursor = index + 1;
        this.compact(queue);
      }
      return target;
    }
    return undefined;
  }

  /** A fetch of this host finished: its slot is free again. */
  release(target: Target): void {
    const queue = this.hosts.get(target.host);
    if (queue) queue.active = Math.max(0, queue.active - 1);
  }

  /** A fetch of this host that had given its slot back (to wait for a retry) goes on. */
  reclaim(target: Target): void {
    const queue = this.hosts.get(target.host);
    if (queue) queue.active++;
  }

  /** Empties the frontier, handing back everything that was still waiting. */
  drain(): Target[] {
    const rest: Target[] = [];
    // One push per target: spreading a queue of a million targets into push() overflows the stack.
    for (const queue of this.waiting)
      for (let index = queue.head; index < queue.items.length; index++)
        rest.push(queue.items[index]!);
    for (const queue of this.waiting) {
      queue.items = [];
      queue.head = 0;
    }
    this.waiting.length = 0;
    this.queued = 0;
    return rest;
  }

  /** Drops the consumed front of a long queue now and then, so memory follows what waits. */
  private compact(queue: HostQueue): void {
    if (queue.head > 1024 && queue.head * 2 > queue.items.length) {
      queue.items = queue.items.slice(queue.head);
      queue.head = 0;
    }
  }
}
