import {
  localHourToUtc,
  nextRunAfter,
  parseHourText,
  ScheduleFrequency,
  utcHourToLocal,
  type ScheduleSettings,
} from '@linkaudit/core';

/**
 * What the schedule fields edit: the user's own clock (SPEC §3: "entered in local time, sent in
 * UTC, shown in local time"). Only the wire format (ScheduleSettings) carries UTC.
 */
export interface ScheduleDraft {
  frequency: ScheduleFrequency;
  /** "HH:mm" on the user's clock. */
  localHour: string;
  /** 1 Monday … 7 Sunday. */
  weeklyDay: number;
  /** 1–31; 29–31 run on the last day of shorter months. */
  monthlyDay: number;
}

/** SPEC §9: weekly, 09:00 local, Monday, the 1st. */
export const defaultScheduleDraft: ScheduleDraft = {
  frequency: ScheduleFrequency.Weekly,
  localHour: '09:00',
  weeklyDay: 1,
  monthlyDay: 1,
};

/** Where the browser is: its offset (as `getTimezoneOffset`) and its IANA zone when it knows one. */
export interface BrowserClock {
  offset: number;
  timeZone?: string;
}

export function browserClock(now: Date = new Date()): BrowserClock {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timeZone
    ? { offset: now.getTimezoneOffset(), timeZone }
    : { offset: now.getTimezoneOffset() };
}

/** The draft on the wire: the hour moved to UTC, with the offset and zone it was entered in. */
export function toScheduleSettings(draft: ScheduleDraft, clock: BrowserClock): ScheduleSettings {
  return {
    frequency: draft.frequency,
    dailyHour: localHourToUtc(draft.localHour, clock.offset),
    weeklyDay: draft.weeklyDay,
    monthlyDay: draft.monthlyDay,
    userTimeZoneOffset: clock.offset,
    ...(clock.timeZone ? { timeZone: clock.timeZone } : {}),
  };
}

/**
 * A stored schedule back as a draft. The hour is read with the offset it was saved with, not the
 * browser's current one: with its time zone the server keeps the schedule at that wall-clock hour
 * across daylight-saving changes, and the description (describeSchedule) reads it the same way,
 * so the time field and the words never disagree.
 */
export function draftOf(settings: ScheduleSettings): ScheduleDraft {
  return {
    frequency: settings.frequency,
    localHour: utcHourToLocal(settings.dailyHour, settings.userTimeZoneOffset),
    weeklyDay: settings.weeklyDay,
    monthlyDay: settings.monthlyDay,
  };
}

/** The first run the draft would start after `now`, if it were saved now. */
export function nextRunOf(draft: ScheduleDraft, clock: BrowserClock, now: Date = new Date()): Date {
  return nextRunAfter(toScheduleSettings(draft, clock), now);
}

/** "HH:mm" as hour and minute, for a time picker. */
export function hourParts(text: string): { hour: number; minute: number } {
  const minutes = parseHourText(text);
  return { hour: Math.floor(minutes / 60), minute: minutes % 60 };
}

/** The name of an ISO weekday (1 Monday … 7 Sunday) in the interface language. */
export function weekdayName(isoDay: number, language: string): string {
  // 2024-01-01 was a Monday; noon UTC keeps the same date in every time zone.
  const date = new Date(Date.UTC(2024, 0, isoDay, 12));
  return new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(date);
}
