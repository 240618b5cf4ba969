import cronstrue from 'cronstrue';
import 'cronstrue/locales/zh_CN.js';
import { localCronExpression, type ScheduleTiming } from './schedule-time.js';

// Its own entry point (`@linkaudit/core/schedule-description`), not re-exported by the index:
// cronstrue and its Chinese texts load only with the screens that describe schedules.

/** `describedCronExpression`: the schedule in words, in local time, in English or Chinese. */
export function describeSchedule(timing: ScheduleTiming, language: string): string {
  const chinese = language.toLowerCase().startsWith('zh');
  const text = cronstrue.toString(localCronExpression(timing), {
    locale: chinese ? 'zh_CN' : 'en',
    use24HourTimeFormat: true,
  });
  // cronstrue's Chinese joins its parts with an ASCII comma; Chinese text takes the full-width one.
  return chinese ? text.replace(/,\s*/g, '，') : text;
}
