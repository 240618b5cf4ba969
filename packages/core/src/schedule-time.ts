/**
 * The clock arithmetic of scheduled scans (SPEC §3 Schedule settings), shared by the server's
 * scheduler and the web app's schedule editor.
 *
 * SPEC's wire format: `dailyHour` is "HH:mm" in UTC, `userTimeZoneOffset` is the browser's
 * `Date.getTimezoneOffset()` (minutes UTC − local, so UTC+8 is −480), `weeklyDay` (1 Monday …
 * 7 Sunday) and `monthlyDay` are the user's own calendar. The optional IANA `timeZone` lets a
 * schedule keep its local hour across daylight-saving changes; without it the offset is fixed.
 */
export const ScheduleFrequency = { Daily: 1, Weekly: 2, Monthly: 3 } as const;
export type ScheduleFrequency = (typeof ScheduleFrequency)[keyof typeof ScheduleFrequency];

export interface ScheduleTiming {
  frequency: number;
  dailyHour: string;
  weeklyDay: number;
  monthlyDay: number;
  userTimeZoneOffset: number;
  timeZone?: string | undefined;
}

const minutesPerDay = 1440;
const msPerMinute = 60_000;

function modulo(value: number, by: number): number {
  return ((value % by) + by) % by;
}

/** "HH:mm" → minutes after midnight; anything unreadable is 09:00, the SPEC default. */
export function parseHourText(text: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return 9 * 60;
  const hours = Math.min(23, Number(match[1]));
  const minutes = Math.min(59, Number(match[2]));
  return hours * 60 + minutes;
}

export function formatHourText(minutes: number): string {
  const value = modulo(minutes, minutesPerDay);
  const hh = String(Math.floor(value / 60)).padStart(2, '0');
  const mm = String(value % 60).padStart(2, '0');
  return `${hh}:${mm}`;
}

/** The local "HH:mm" a user chose → the UTC "HH:mm" sent as dailyHour (and back). */
export function localHourToUtc(localHour: string, userTimeZoneOffset: number): string {
  return formatHourText(parseHourText(localHour) + userTimeZoneOffset);
}

export function utcHourToLocal(utcHour: string, userTimeZoneOffset: number): string {
  return formatHourText(parseHourText(utcHour) - userTimeZoneOffset);
}

/** Minutes after local midnight the schedule fires at. */
export function localMinuteOfDay(timing: ScheduleTiming): number {
  return modulo(parseHourText(timing.dailyHour) - timing.userTimeZoneOffset, minutesPerDay);
}

/**
 * The cron expression in UTC that SPEC's `scheduleCronExpression` carries. When the UTC time
 * falls on another day than the local one, the weekday or month day moves with it; a monthly
 * day moved before the 1st is `L` (the last day of the previous month).
 */
export function utcCronExpression(timing: ScheduleTiming): string {
  const local = localMinuteOfDay(timing);
  const utcTotal = local + timing.userTimeZoneOffset;
  const dayShift = Math.floor(utcTotal / minutesPerDay);
  const utc = modulo(utcTotal, minutesPerDay);
  const time = `${utc % 60} ${Math.floor(utc / 60)}`;
  if (timing.frequency === ScheduleFrequency.Daily) return `${time} * * *`;
  if (timing.frequency === ScheduleFrequency.Monthly) {
    const day = timing.monthlyDay + dayShift;
    return `${time} ${day < 1 ? 'L' : day > 31 ? 1 : day} * *`;
  }
  return `${time} * * ${modulo(timing.weeklyDay + dayShift, 7)}`;
}

/** The same schedule as a cron expression in the user's local time (what they chose). */
export function localCronExpression(timing: ScheduleTiming): string {
  const local = localMinuteOfDay(timing);
  const time = `${local % 60} ${Math.floor(local / 60)}`;
  if (timing.frequency === ScheduleFrequency.Daily) return `${time} * * *`;
  if (timing.frequency === ScheduleFrequency.Monthly) return `${time} ${timing.monthlyDay} * *`;
  return `${time} * * ${modulo(timing.weeklyDay, 7)}`;
}

/** The zone's offset (local − UTC, minutes) at an instant; a fixed offset without a zone. */
function offsetFinder(timing: ScheduleTiming): (instant: number) => number {
  const format = zoneFormat(timing.timeZone);
  if (!format) return () => -timing.userTimeZoneOffset;
  return (instant) => {
    const parts = Object.fromEntries(
      format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]),
    );
    const wall = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour) % 24,
      Number(parts.minute),
    );
    return Math.round((wall - (instant - (instant % msPerMinute))) / msPerMinute);
  };
}

const formats = new Map<string, Intl.DateTimeFormat | undefined>();

/** A formatter for the IANA zone, or undefined when the name is not one the runtime knows. */
function zoneFormat(timeZone: string | undefined): Intl.DateTimeFormat | undefined {
  if (!timeZone) return undefined;
  if (!formats.has(timeZone)) {
    try {
      const format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      });
      formats.set(timeZone, format);
    } catch {
      formats.set(timeZone, undefined);
    }
  }
  return formats.get(timeZone);
}

export function isKnownTimeZone(timeZone: string): boolean {
  return zoneFormat(timeZone) !== undefined;
}

/**
 * The instant a local wall-clock time happens. Of a time that happens twice (clocks going back)
 * the first; of one that never happens (clocks going forward) the moment just after the gap,
 * as people expect a 02:30 alarm on such a night to ring at 03:30.
 */
function zonedInstant(wallAsUtc: number, offsetAt: (instant: number) => number): number {
  const dayMs = minutesPerDay * msPerMinute;
  const before = offsetAt(wallAsUtc - dayMs);
  const after = offsetAt(wallAsUtc + dayMs);
  const candidates = [before, after]
    .map((offset) => wallAsUtc - offset * msPerMinute)
    .filter((instant) => wallAsUtc - offsetAt(instant) * msPerMinute === instant)
    .sort((a, b) => a - b);
  return candidates[0] ?? wallAsUtc - before * msPerMinute;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Does this local date (as a UTC-midnight date) carry a run? Monthly 29–31 fall back to the last day. */
function runsOn(date: Date, timing: ScheduleTiming): boolean {
  if (timing.frequency === ScheduleFrequency.Daily) return true;
  if (timing.frequency === ScheduleFrequency.Monthly) {
    const last = daysInMonth(date.getUTCFullYear(), date.getUTCMonth());
    return date.getUTCDate() === Math.min(timing.monthlyDay, last);
  }
  const isoWeekday = date.getUTCDay() === 0 ? 7 : date.getUTCDay();
  return isoWeekday === timing.weeklyDay;
}

/** The first run strictly after `after`. */
export function nextRunAfter(timing: ScheduleTiming, after: Date): Date {
  const offsetAt = offsetFinder(timing);
  const minute = localMinuteOfDay(timing);
  const start = after.getTime();
  const localNow = new Date(start + offsetAt(start) * msPerMinute);
  const day = Date.UTC(localNow.getUTCFullYear(), localNow.getUTCMonth(), localNow.getUTCDate());
  // A month and a half covers every frequency; the extra days absorb zone shifts.
  for (let index = -1; index < 45; index++) {
    const date = new Date(day + index * minutesPerDay * msPerMinute);
    if (!runsOn(date, timing)) continue;
    const instant = zonedInstant(date.getTime() + minute * msPerMinute, offsetAt);
    if (instant > start) return new Date(instant);
  }
  throw new Error('no run found in 45 days');
}
