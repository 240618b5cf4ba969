import cronstrue from 'cronstrue';
import 'cronstrue/locales/zh_CN.js';
import { localCronExpression, type ScheduleTiming } from './schedule-time.js';

// Its own entry point (`@linkaudit/core/schedule-description`), not re-exported by the index:
// cronstrue and its Chinese texts load only with the screens that describe schedules.

/** `describedCronExpression`: the schedule in words, in local time, in English or Chinese. */
export function describeSchedule(timing: ScheduleTiming, language: string): string {
  const locale = language.toLowerCase().startsWith('zh') ? 'zh_CN' : 'en';
  return cronstrue.toString(localCronExpression(timing), { locale, use24HourTimeFormat: true });
}
