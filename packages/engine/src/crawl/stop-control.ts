import type { StopCause } from '../events.js';

/**
 * One place that decides when a scan stops and why: the caller's signal (cancel), the time
 * limit, or a limit the scan reached. Aborting its signal cuts every request under way.
 */
export class StopControl {
  private readonly controller = new AbortController();
  private cause: StopCause | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onExternalAbort = () => this.stop('cancelled');

  constructor(
    private readonly external: AbortSignal | undefined,
    timeLimitMs: number,
    private readonly onStop: () => void,
  ) {
    if (external?.aborted) this.stop('cancelled');
    external?.addEventListener('abort', this.onExternalAbort, { once: true });
    if (Number.isFinite(timeLimitMs)) {
      this.timer = setTimeout(() => this.stop('timeout'), timeLimitMs);
      this.timer.unref();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): boolean {
    return this.cause !== undefined;
  }

  get stopCause(): StopCause | undefined {
    return this.cause;
  }

  /** The first cause wins: a cancel after a timeout is still a timeout. */
  stop(cause: StopCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.controller.abort();
    this.onStop();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
  }
}
