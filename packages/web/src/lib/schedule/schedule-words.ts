import type { TFunction } from 'i18next';
import { ScheduleFrequency, type ScheduleTiming } from '@linkaudit/core';
import { weekdayName } from './schedule-draft';

/**
 * SPEC §9's schedule frequencies in words: 'every day', 'every week on {weekday}', 'every month
 * on day {n}'. The weekday and day are the user's own calendar (SPEC §3), so they read as stored.
 */
export function scheduleWords(
  timing: Pick<ScheduleTiming, 'frequency' | 'weeklyDay' | 'monthlyDay'>,
  t: TFunction,
  language: string,
): string {
  if (timing.frequency === ScheduleFrequency.Daily) return t('schedule.words.daily');
  if (timing.frequency === ScheduleFrequency.Monthly) {
    return t('schedule.words.monthly', { n: timing.monthlyDay });
  }
  return t('schedule.words.weekly', { weekday: weekdayName(timing.weeklyDay, language) });
}
