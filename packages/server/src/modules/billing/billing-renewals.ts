import type { FastifyBaseLogger } from 'fastify';
import { PeriodicTask } from '../../periodic-task.js';
import type { SandboxGateway } from './sandbox-gateway.js';

/**
 * The scheduler role's share of billing: with the sandbox gateway, trial ends, renewals and
 * cancellations at period end are run on each tick (a real provider renews on its side and
 * tells us by webhook). The sandbox claims each period end with a conditional update, so
 * several schedulers renew each subscription exactly once.
 */
export class BillingRenewals {
  readonly #task: PeriodicTask;

  constructor(
    private readonly deps: {
      sandbox: SandboxGateway | null;
      log: FastifyBaseLogger;
      intervalMs: number;
    },
  ) {
    this.#task = new PeriodicTask(() => this.tick(), {
      intervalMs: deps.intervalMs,
      log: deps.log,
      failure: 'billing renewals failed',
    });
  }

  start(): void {
    if (this.deps.sandbox) this.#task.start();
  }

  stop(): Promise<void> {
    return this.#task.stop();
  }

  /** Runs what fell due by the billing clock; answers how many periods ended. */
  async tick(): Promise<number> {
    return this.deps.sandbox ? this.deps.sandbox.runDue() : 0;
  }
}
