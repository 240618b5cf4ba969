import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  nextRunAfter,
  planOf,
  ScanStatus,
  scheduleSkipReasons,
  type PlanId,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { PeriodicTask } from '../../periodic-task.js';
import { toDate } from '../../db/values.js';
import type { AccountService } from '../accounts/accounts.service.js';
import {
  claimDueRun,
  dueSchedules,
  hasUnfinishedRun,
  recordSchedulerTick,
  recordSkip,
  type ScheduleRow,
} from './schedules.repository.js';
import { scheduleSettingsOf, type ScheduleService } from './schedules.service.js';

export interface SchedulerDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: FastifyBaseLogger;
  schedules: ScheduleService;
  /** Whose schedule it is: the owner's plan decides whether it still runs. */
  accounts: Pick<AccountService, 'findUser'>;
  /** Whether the owner's last payment failed (billing): a past-due account's runs are skipped. */
  paymentFailed?: (userId: string) => Promise<boolean>;
  /** How often the scheduler looks for due schedules (ms). */
  intervalMs: number;
}

/** What one due schedule came to: a run queued, or a skip and why. */
export type FiringOutcome =
  | { scheduleId: string; kind: 'queued'; scanId: string }
  | { scheduleId: string; kind: 'skipped'; reason: string };

/** Due schedules looked at per tick; more wait for the next tick. */
const batchSize = 100;

/**
 * Fires due schedules. Each process that runs it (role all or scheduler) races for a run by
 * moving the schedule's next-run time with a conditional update, so a run fires exactly once
 * however many schedulers share the database. The next run is computed from now, not from the
 * missed time: a server that was down for three weeks catches up with one run, not three.
 */
export class Scheduler {
  readonly #task: PeriodicTask;

  constructor(private readonly deps: SchedulerDeps) {
    this.#task = new PeriodicTask(() => this.tick(), {
      intervalMs: deps.intervalMs,
      log: deps.log,
      failure: 'scheduler tick failed',
    });
  }

  start(): void {
    this.#task.start();
  }

  stop(): Promise<void> {
    return this.#task.stop();
  }

  /** One look at the clock: every due schedule this process wins is fired or skipped. */
  async tick(): Promise<FiringOutcome[]> {
    // Real time: the health page tells whether a scheduler is alive, whatever the service clock.
    await recordSchedulerTick(this.deps.db, new Date());
    const now = this.deps.clock.now();
    const due = await dueSchedules(this.deps.db, now, batchSize);
    const outcomes: FiringOutcome[] = [];
    for (const row of due) {
      if (!row.next_run_at) continue;
      const next = nextRunAfter(scheduleSettingsOf(row), now);
      if (!(await claimDueRun(this.deps.db, row.id, toDate(row.next_run_at), next))) continue;
      const outcome = await this.#fire(row);
      if (outcome.kind === 'skipped') {
        await recordSkip(this.deps.db, row.id, outcome.reason, now);
      }
      this.deps.log.info(outcome, 'scheduled run');
      outcomes.push(outcome);
    }
    return outcomes;
  }

  async #fire(row: ScheduleRow): Promise<FiringOutcome> {
    const skipped = (reason: string): FiringOutcome => ({
      scheduleId: row.id,
      kind: 'skipped',
      reason,
    });
    const user = await this.deps.accounts.findUser(row.user_id);
    const plan = planOf(user?.paidPlanId);
    if (!user || !plan.paid || plan.schedules === 0) {
      return skipped(scheduleSkipReasons.planHasNoSchedules);
    }
    if (await this.deps.paymentFailed?.(user.id)) {
      return skipped(scheduleSkipReasons.paymentFailed);
    }
    if (await hasUnfinishedRun(this.deps.db, row.id)) {
      return skipped(scheduleSkipReasons.stillRunning);
    }
    try {
      const owner = { id: user.id, planId: user.paidPlanId as PlanId };
      const answer = await this.deps.schedules.queueRun(owner, row);
      if (answer.status === ScanStatus.MonthlyLimitReached) {
        return skipped(scheduleSkipReasons.monthlyLimitReached);
      }
      if (answer.status === ScanStatus.LowCreditWarning) {
        return skipped(scheduleSkipReasons.lowCredit);
      }
      return { scheduleId: row.id, kind: 'queued', scanId: answer.id ?? '' };
    } catch (error) {
      // A URL the policy now refuses, say: the schedule stays, the reason is shown on it.
      return skipped(error instanceof Error ? error.message : String(error));
    }
  }
}
