import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { addClockOffsetMs, readClockOffsetMs } from './sandbox.repository.js';

const dayMs = 24 * 3600 * 1000;

/**
 * The sandbox gateway's time: the server's clock plus an offset kept in the database, so
 * `npm start -- billing advance-clock <days>` (another process) moves every server's billing
 * time at once and the scheduler then runs what fell due (trial ends, renewals). Only billing
 * reads it: scans, tokens and schedules keep real time.
 */
export class BillingClock {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly base: Clock,
  ) {}

  async now(): Promise<Date> {
    return new Date(this.base.now().getTime() + (await readClockOffsetMs(this.db)));
  }

  /** Moves billing time forward; answers the new billing time. */
  async advanceDays(days: number): Promise<Date> {
    const offset = await addClockOffsetMs(this.db, days * dayMs);
    return new Date(this.base.now().getTime() + offset);
  }
}
