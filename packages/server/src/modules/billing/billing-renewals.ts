import type { FastifyBaseLogger } from 'fastify';
import type { SandboxGateway } from './sandbox-gateway.js';

/**
 * The scheduler role's share of billing: with the sandbox gateway, trial ends, renewals and
 * cancellations at period end are run on each tick (a real provider renews on its side and
 * tells us by webhook). The sandbox claims each period end with a conditional update, so
 * several schedulers renew each subscription exactly once.
 */
export class BillingRenewals {
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      sandbox: SandboxGateway | null;
      log: FastifyBaseLogger;
      intervalMs: number;
    },
  ) {}

  start(): void {
    if (this.#timer || !this.deps.sandbox) return;
    const run = () => {
      this.#ticking = this.tick().catch((error: unknown) => {
        this.deps.log.error({ err: error }, 'billing renewals failed');
      });
    };
    run();
    this.#timer = setInterval(run, this.deps.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking;
  }

  /** Runs what fell due by the billing clock; answers how many periods ended. */
  async tick(): Promise<number> {
    return this.deps.sandbox ? this.deps.sandbox.runDue() : 0;
  }
}
