import type { PostCrawlPhase } from '@linkaudit/core';
import type { Backpressure } from './backpressure.js';

/** A loop holds the thread this long at most before letting timers and messages in. */
const yieldEveryMs = 20;

export interface PhaseBudgetOptions {
  /** The phase's time; past it the phase stops with what it has. */
  timeMs: number;
  /** The scan's cancel: a phase stops within one yield of it. */
  cancel: AbortSignal | undefined;
  /** While the events' consumer is behind, a phase waits instead of piling events up. */
  backpressure?: Backpressure | undefined;
  now?: () => number;
}

/**
 * The time and the cancel of one phase after the crawl (issue 34). A phase's loops ask
 * `exhausted` as they go and `await pace()` between items: a long synchronous loop would keep a
 * cancel message, a timer and the events' consumer waiting, and its deadline would never fire.
 */
export class PhaseBudget {
  /** Moves later by the time spent waiting for the consumer: the limit is on the phase's own work. */
  private deadline: number;
  private readonly now: () => number;
  private lastYield: number;
  /** The phase reached its time limit (it was not cancelled). */
  cutShort = false;
  /** Items the phase handled: the work it did, for tests and benches. */
  steps = 0;

  constructor(
    readonly phase: PostCrawlPhase,
    private readonly options: PhaseBudgetOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.deadline = this.now() + options.timeMs;
    this.lastYield = this.now();
  }

  get cancelled(): boolean {
    return this.options.cancel?.aborted ?? false;
  }

  /** Whether the phase must stop now: cancelled, or its time is up (then it was cut short). */
  get exhausted(): boolean {
    if (this.cancelled) return true;
    if (this.cutShort) return true;
    if (this.now() < this.deadline) return false;
    this.cutShort = true;
    return true;
  }

  /**
   * Counts one item and, when the loop has held the thread for a while, lets the event loop run
   * (and waits while the consumer is full). Resolves at once most of the time.
   */
  async pace(): Promise<void> {
    this.steps++;
    if (this.now() - this.lastYield < yieldEveryMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Polled, not a room listener: a Backpressure keeps every listener it is given.
    const waitStart = this.now();
    while (this.options.backpressure?.isFull() && !this.cancelled)
      await new Promise<void>((resolve) => setTimeout(resolve, yieldEveryMs));
    this.lastYield = this.now();
    this.deadline += this.lastYield - waitStart;
  }
}
