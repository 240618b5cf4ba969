import type { FastifyBaseLogger } from 'fastify';

/**
 * A task run at once and then every `intervalMs` in the background (the scheduler role's ticks):
 * a failed run is logged and the next one runs as planned; `stop` waits for a run in progress.
 * The timer does not keep the process alive.
 */
export class PeriodicTask {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly options: { intervalMs: number; log: FastifyBaseLogger; failure: string },
  ) {}

  start(): void {
    if (this.#timer) return;
    const runOnce = () => {
      this.#running = this.run().catch((error: unknown) => {
        this.options.log.error({ err: error }, this.options.failure);
      });
    };
    runOnce();
    this.#timer = setInterval(runOnce, this.options.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
