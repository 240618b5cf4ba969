import { describe, expect, it } from 'vitest';
import { defaultScheduleChoice, savesScheduleOnly, scheduleSubmission } from './schedule-choice';

const berlin = { offset: -60, timeZone: 'Europe/Berlin' };

describe('the schedule part of a scan submission', () => {
  it('sends no schedule while scheduling is off, even with "only save" ticked', () => {
    const choice = { ...defaultScheduleChoice, saveOnly: true };
    expect(scheduleSubmission(choice, berlin)).toEqual({ enableSchedule: false });
    expect(savesScheduleOnly(choice)).toBe(false);
  });

  it('sends the schedule in UTC with its zone, and whether to scan now', () => {
    const choice = { ...defaultScheduleChoice, enabled: true, saveOnly: true };
    expect(scheduleSubmission(choice, berlin)).toEqual({
      enableSchedule: true,
      saveScheduleOnly: true,
      notifyOnChange: true,
      scheduleSettings: {
        frequency: 2,
        dailyHour: '08:00',
        weeklyDay: 1,
        monthlyDay: 1,
        userTimeZoneOffset: -60,
        timeZone: 'Europe/Berlin',
      },
    });
    expect(savesScheduleOnly(choice)).toBe(true);
  });

  it('carries the choice not to be mailed about changes', () => {
    const choice = { ...defaultScheduleChoice, enabled: true, notify: false };
    expect(scheduleSubmission(choice, berlin)).toMatchObject({ notifyOnChange: false });
  });
});
