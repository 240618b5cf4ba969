const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * "3 hours ago" / "3小时前": the largest whole unit between then and now, in the given language.
 * Whole units are counted down (floor), never rounded up, and anything under a minute reads "this
 * minute": a list refreshed every few seconds then moves on by one step at a time instead of
 * jumping between "6 seconds ago" and "1 minute ago".
 */
export function formatRelativeTime(then: Date, language: string, now: Date = new Date()): string {
  const seconds = (then.getTime() - now.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const sign = seconds < 0 ? -1 : 1;
  for (const [unit, size] of units) {
    if (unit === 'second') break;
    const whole = Math.floor(Math.abs(seconds) / size);
    if (whole >= 1) return format.format(sign * whole, unit);
  }
  return format.format(0, 'minute');
}
