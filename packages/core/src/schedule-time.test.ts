import { describeSchedule } from './schedule-description.js';
import { describe, expect, it } from 'vitest';
import {
  localHourToUtc,
  nextRunAfter,
  utcCronExpression,
  utcHourToLocal,
  type ScheduleTiming,
} from './schedule-time.js';

/** A schedule as the browser sends it: the local hour converted to UTC with its offset. */
function timing(local: string, offset: number, rest: Partial<ScheduleTiming> = {}): ScheduleTiming {
  return {
    frequency: 2,
    weeklyDay: 1,
    monthlyDay: 1,
    ...rest,
    dailyHour: localHourToUtc(local, offset),
    userTimeZoneOffset: offset,
  };
}

const at = (iso: string) => new Date(iso);

describe('hours between local time and UTC', () => {
  it('sends 09:00 in UTC+8 as 01:00 and shows it back as 09:00', () => {
    expect(localHourToUtc('09:00', -480)).toBe('01:00');
    expect(utcHourToLocal('01:00', -480)).toBe('09:00');
  });
  it('wraps around midnight both ways', () => {
    expect(localHourToUtc('02:30', -480)).toBe('18:30');
    expect(localHourToUtc('22:15', 300)).toBe('03:15');
    expect(utcHourToLocal('03:15', 300)).toBe('22:15');
  });
});

describe('the UTC cron expression', () => {
  it('is the SPEC default: weekly on Monday at 09:00', () => {
    expect(utcCronExpression(timing('09:00', 0))).toBe('0 9 * * 1');
  });
  it('moves the weekday when UTC is on the day before', () => {
    // Monday 02:30 in UTC+8 is Sunday 18:30 UTC.
    expect(utcCronExpression(timing('02:30', -480))).toBe('30 18 * * 0');
  });
  it('moves the weekday when UTC is on the day after', () => {
    // Sunday 22:15 in UTC−5 is Monday 03:15 UTC.
    expect(utcCronExpression(timing('22:15', 300, { weeklyDay: 7 }))).toBe('15 3 * * 1');
  });
  it('daily and monthly, with the first of the month moving to the last day before it', () => {
    expect(utcCronExpression(timing('09:00', -480, { frequency: 1 }))).toBe('0 1 * * *');
    expect(utcCronExpression(timing('09:00', 0, { frequency: 3, monthlyDay: 15 }))).toBe(
      '0 9 15 * *',
    );
    expect(utcCronExpression(timing('02:00', -480, { frequency: 3, monthlyDay: 1 }))).toBe(
      '0 18 L * *',
    );
  });
});

describe('the description, in local time', () => {
  it('speaks English and Chinese', () => {
    const weekly = timing('09:00', -480);
    expect(describeSchedule(weekly, 'en')).toBe('At 09:00, only on Monday');
    expect(describeSchedule(weekly, 'zh-CN')).toBe('在09:00，仅星期一');
    const monthly = timing('18:30', 60, { frequency: 3, monthlyDay: 15 });
    expect(describeSchedule(monthly, 'en')).toBe('At 18:30, on day 15 of the month');
    expect(describeSchedule(timing('07:05', 0, { frequency: 1 }), 'en')).toBe('At 07:05');
  });
});

describe('the next run', () => {
  it('daily: later today, else tomorrow', () => {
    const daily = timing('09:00', 0, { frequency: 1 });
    expect(nextRunAfter(daily, at('2026-03-10T08:59:00Z'))).toEqual(at('2026-03-10T09:00:00Z'));
    expect(nextRunAfter(daily, at('2026-03-10T09:00:00Z'))).toEqual(at('2026-03-11T09:00:00Z'));
  });

  it('weekly in UTC+8: Monday 09:00 local is Monday 01:00 UTC', () => {
    const weekly = timing('09:00', -480);
    // Wednesday 2026-11-18 → Monday 2026-11-23.
    expect(nextRunAfter(weekly, at('2026-11-18T12:00:00Z'))).toEqual(at('2026-11-23T01:00:00Z'));
  });

  it('weekly when the local day differs from the UTC day', () => {
    // Monday 02:30 in UTC+8 = Sunday 18:30 UTC; asked on Sunday 2026-11-22 at noon UTC.
    const weekly = timing('02:30', -480);
    expect(nextRunAfter(weekly, at('2026-11-22T12:00:00Z'))).toEqual(at('2026-11-22T18:30:00Z'));
  });

  it('monthly on day 31 runs on the last day of shorter months', () => {
    const monthly = timing('09:00', 0, { frequency: 3, monthlyDay: 31 });
    expect(nextRunAfter(monthly, at('2026-02-01T00:00:00Z'))).toEqual(at('2026-02-28T09:00:00Z'));
    expect(nextRunAfter(monthly, at('2028-02-01T00:00:00Z'))).toEqual(at('2028-02-29T09:00:00Z'));
    expect(nextRunAfter(monthly, at('2026-04-01T00:00:00Z'))).toEqual(at('2026-04-30T09:00:00Z'));
    expect(nextRunAfter(monthly, at('2026-04-30T09:00:00Z'))).toEqual(at('2026-05-31T09:00:00Z'));
  });

  it('monthly across a year end', () => {
    const monthly = timing('09:00', 0, { frequency: 3, monthlyDay: 1 });
    expect(nextRunAfter(monthly, at('2026-12-15T00:00:00Z'))).toEqual(at('2027-01-01T09:00:00Z'));
  });

  describe('with a time zone, across daylight-saving changes (Europe/Berlin)', () => {
    // Berlin: UTC+1 in winter, UTC+2 from 2026-03-29 02:00 to 2026-10-25 03:00.
    const berlin = (local: string, rest: Partial<ScheduleTiming> = {}) =>
      timing(local, -60, { ...rest, timeZone: 'Europe/Berlin' });

    it('keeps 09:00 local before and after spring forward', () => {
      const daily = berlin('09:00', { frequency: 1 });
      expect(nextRunAfter(daily, at('2026-03-28T12:00:00Z'))).toEqual(at('2026-03-29T07:00:00Z'));
      expect(nextRunAfter(daily, at('2026-03-27T12:00:00Z'))).toEqual(at('2026-03-28T08:00:00Z'));
    });

    it('keeps 09:00 local after fall back', () => {
      const daily = berlin('09:00', { frequency: 1 });
      expect(nextRunAfter(daily, at('2026-10-24T12:00:00Z'))).toEqual(at('2026-10-25T08:00:00Z'));
    });

    it('a time that does not exist that night runs just after the gap', () => {
      // 02:30 on 2026-03-29 does not exist in Berlin; 03:30 CEST is 01:30 UTC.
      const daily = berlin('02:30', { frequency: 1 });
      expect(nextRunAfter(daily, at('2026-03-28T12:00:00Z'))).toEqual(at('2026-03-29T01:30:00Z'));
    });

    it('a time that happens twice runs once, at the first', () => {
      // 02:30 on 2026-10-25 happens at 00:30 UTC (CEST) and 01:30 UTC (CET).
      const daily = berlin('02:30', { frequency: 1 });
      const first = nextRunAfter(daily, at('2026-10-24T12:00:00Z'));
      expect(first).toEqual(at('2026-10-25T00:30:00Z'));
      expect(nextRunAfter(daily, first)).toEqual(at('2026-10-26T01:30:00Z'));
    });

    it('weekly across the change keeps the weekday and the local hour', () => {
      const weekly = berlin('09:00', { weeklyDay: 1 });
      expect(nextRunAfter(weekly, at('2026-03-24T00:00:00Z'))).toEqual(at('2026-03-30T07:00:00Z'));
    });

    it('without a zone the offset stays fixed (UTC+1 all year)', () => {
      const fixed = timing('09:00', -60, { frequency: 1 });
      expect(nextRunAfter(fixed, at('2026-07-01T12:00:00Z'))).toEqual(at('2026-07-02T08:00:00Z'));
    });

    it('an unknown zone name falls back to the offset', () => {
      const unknown = timing('09:00', -60, { frequency: 1, timeZone: 'Mars/Olympus' });
      expect(nextRunAfter(unknown, at('2026-07-01T12:00:00Z'))).toEqual(at('2026-07-02T08:00:00Z'));
    });
  });

  it('successive runs of a weekly schedule are a week apart', () => {
    const weekly = timing('09:00', -480, { weeklyDay: 5 });
    let run = nextRunAfter(weekly, at('2026-01-01T00:00:00Z'));
    for (let index = 0; index < 60; index++) {
      const next = nextRunAfter(weekly, run);
      expect(next.getTime() - run.getTime()).toBe(7 * 24 * 3600 * 1000);
      run = next;
    }
  });
});
