/**
 * How hard each host of a scan may be asked (issue 35), shared by the frontier (which target to
 * start) and the HTTP client (whether a request may go now):
 *
 * - A 429, or a 503 with Retry-After, pauses the whole host until the time it announced: no
 *   request of any URL goes to it meanwhile (a URL retrying waits with the others, holding no
 *   thread). A Retry-After longer than our patience leaves the host paused and its links
 *   Unverified at once, without a request.
 * - Its number of concurrent requests backs off on a 429 (halved) and recovers slowly (+1 after
 *   as many answers without 429 as the current limit), never above the configured limit (AIMD).
 * - An external host gets a time budget: the time it had requests under way, counted once
 *   however many were. Past it no more requests go to it, so one slow or hostile host cannot hold
 *   the scan; its links still waiting are Unverified ("host too slow").
 */
export class HostPacing {
  private readonly hosts = new Map<string, HostPace>();

  constructor(private readonly config: HostPacingConfig) {}

  /** The time an external host may have requests under way in all. */
  get budgetMs(): number {
    return this.config.hostBudgetMs;
  }

  /**
   * The pace of `host`. `limit`: its configured concurrency (the frontier's, per host); a pace
   * the client made first (robots.txt, the start page, a redirect's host) takes it then.
   */
  of(host: string, limit?: number): HostPace {
    let pace = this.hosts.get(host);
    if (!pace) this.hosts.set(host, (pace = new HostPace(limit ?? this.config.defaultLimit)));
    else if (limit !== undefined && !pace.configured) pace.configure(limit);
    if (limit !== undefined) pace.configured = true;
    return pace;
  }

  /** The scanned site's own hosts have no time budget (the crawl is their time). */
  exemptFromBudget(host: string): void {
    this.of(host).budgeted = false;
  }

  /**
   * Whether targets of this host should wait in the frontier: it is paused, and the pause ends
   * within our patience (past it, or over its budget, they go and are settled without a request).
   */
  holds(pace: HostPace, now = Date.now()): boolean {
    const left = pace.pausedUntil - now;
    return left > 0 && left <= this.config.patienceMs && !this.overBudget(pace);
  }

  /** What a request to `host` must do first: go, wait this long, or not go at all. */
  admission(host: string, now = Date.now()): Admission {
    const pace = this.hosts.get(host);
    if (!pace) return { go: true };
    if (this.overBudget(pace)) return { go: false, cause: 'host-too-slow' };
    const wait = pace.pausedUntil - now;
    return wait > 0 ? { go: 'wait', waitMs: wait } : { go: true };
  }

  /** A request to `host` starts (its time counts against the host's budget). */
  started(host: string, now?: number): void {
    const pace = this.of(host);
    if (pace.inFlight++ === 0) pace.busySince = now ?? performance.now();
  }

  /** A request to `host` ended (headers received or failed). */
  finished(host: string, now?: number): void {
    const pace = this.hosts.get(host);
    if (!pace || pace.inFlight === 0) return;
    if (--pace.inFlight === 0) pace.busyMs += (now ?? performance.now()) - pace.busySince;
  }

  /**
   * The host asked us to wait `waitMs` (Retry-After, or our backoff after a bare 429): nothing
   * goes to it before then. `throttle`: it was a 429, so its concurrency halves too.
   */
  pause(host: string, waitMs: number, throttle: boolean, now = Date.now()): void {
    const pace = this.of(host);
    // Answers to requests sent before the pause was known all say the same: halve once a pause.
    if (throttle && now >= pace.pausedUntil) pace.throttle();
    const until = now + waitMs;
    if (until > pace.pausedUntil) {
      pace.pausedUntil = until;
      clearTimeout(pace.timer);
      // Targets held in the frontier go on when it ends; past our patience none are held.
      if (waitMs <= this.config.patienceMs) {
        pace.timer = setTimeout(this.config.onResume, waitMs + 1);
      }
    }
  }

  /** An answer that was not a 429: the host's concurrency may grow back. */
  answered(host: string): void {
    const pace = this.hosts.get(host);
    if (pace && pace.cap < pace.limit) pace.recover();
  }

  /** Stops the timers (the scan is over). */
  close(): void {
    for (const pace of this.hosts.values()) clearTimeout(pace.timer);
  }

  private overBudget(pace: HostPace): boolean {
    if (!pace.budgeted) return false;
    const busy = pace.busyMs + (pace.inFlight > 0 ? performance.now() - pace.busySince : 0);
    return busy > this.config.hostBudgetMs;
  }
}

export interface HostPacingConfig {
  /** Concurrent requests of a host no queue configured (a redirect's other host). */
  defaultLimit: number;
  /** The longest pause we wait for (maxRetryAfterMs); a longer one leaves the links Unverified. */
  patienceMs: number;
  /** The time an external host may have requests under way in all. */
  hostBudgetMs: number;
  /** A pause ended: held targets may start. */
  onResume: () => void;
}

export type Admission =
  { go: true } | { go: 'wait'; waitMs: number } | { go: false; cause: 'host-too-slow' };

/** One host's pause, concurrency and time spent. */
export class HostPace {
  /** The concurrent requests it may have now (AIMD between 1 and `limit`). */
  cap: number;
  pausedUntil = 0;
  budgeted = true;
  inFlight = 0;
  busySince = 0;
  busyMs = 0;
  timer: NodeJS.Timeout | undefined;
  private answersSinceGrowth = 0;

  /** Its limit came from the frontier (not the default of a host met through the client). */
  configured = false;

  constructor(public limit: number) {
    this.cap = limit;
  }

  configure(limit: number): void {
    this.cap = this.cap === this.limit ? limit : Math.min(this.cap, limit);
    this.limit = limit;
  }

  throttle(): void {
    this.cap = Math.max(1, Math.floor(this.cap / 2));
    this.answersSinceGrowth = 0;
  }

  recover(): void {
    if (++this.answersSinceGrowth < this.cap) return;
    this.answersSinceGrowth = 0;
    this.cap++;
  }
}
