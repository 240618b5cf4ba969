import { describeSchedule } from '@linkaudit/core/schedule-description';
import { describe, expect, it } from 'vitest';
import { ScheduleFrequency } from '@linkaudit/core';
import {
  defaultScheduleDraft,
  draftOf,
  hourParts,
  nextRunOf,
  toScheduleSettings,
  weekdayName,
  type ScheduleDraft,
} from './schedule-draft';

const shanghai = { offset: -480, timeZone: 'Asia/Shanghai' };
const newYorkWinter = { offset: 300, timeZone: 'America/New_York' };

describe('schedule drafts', () => {
  it('sends the local hour in UTC with the offset and zone it was entered in', () => {
    expect(toScheduleSettings(defaultScheduleDraft, shanghai)).toEqual({
      frequency: ScheduleFrequency.Weekly,
      dailyHour: '01:00',
      weeklyDay: 1,
      monthlyDay: 1,
      userTimeZoneOffset: -480,
      timeZone: 'Asia/Shanghai',
    });
  });

  it('moves an evening hour west of UTC into the next UTC day', () => {
    const draft: ScheduleDraft = { ...defaultScheduleDraft, localHour: '21:30' };
    expect(toScheduleSettings(draft, newYorkWinter).dailyHour).toBe('02:30');
  });

  it('leaves the zone out when the browser names none', () => {
    expect(toScheduleSettings(defaultScheduleDraft, { offset: 0 })).not.toHaveProperty('timeZone');
  });

  it('reads a stored schedule back at the hour it was entered, whatever the browser offset', () => {
    const draft: ScheduleDraft = {
      frequency: ScheduleFrequency.Monthly,
      localHour: '07:30',
      weeklyDay: 5,
      monthlyDay: 31,
    };
    expect(draftOf(toScheduleSettings(draft, shanghai))).toEqual(draft);
    expect(draftOf(toScheduleSettings(draft, newYorkWinter))).toEqual(draft);
  });

  it('describes the hour the user chose, not the UTC one', () => {
    const settings = toScheduleSettings(defaultScheduleDraft, shanghai);
    expect(describeSchedule(settings, 'en')).toBe('At 09:00, only on Monday');
    expect(describeSchedule(settings, 'zh-CN')).toBe('在09:00，仅星期一');
  });

  it('finds the next run on the chosen weekday at the chosen local hour', () => {
    // Wednesday 2026-03-04 10:00 in Shanghai → Monday 2026-03-09 09:00 there = 01:00 UTC.
    const now = new Date('2026-03-04T02:00:00Z');
    expect(nextRunOf(defaultScheduleDraft, shanghai, now).toISOString()).toBe(
      '2026-03-09T01:00:00.000Z',
    );
  });

  it('splits "HH:mm" for a time picker', () => {
    expect(hourParts('07:05')).toEqual({ hour: 7, minute: 5 });
    expect(hourParts('23:59')).toEqual({ hour: 23, minute: 59 });
  });
});

describe('weekday names', () => {
  it('names ISO weekdays in the interface language', () => {
    expect(weekdayName(1, 'en')).toBe('Monday');
    expect(weekdayName(7, 'en')).toBe('Sunday');
    expect(weekdayName(1, 'zh-CN')).toBe('星期一');
    expect(weekdayName(7, 'zh-CN')).toBe('星期日');
  });
});
