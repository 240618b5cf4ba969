import type { CreateScanRequest } from '@linkaudit/core';
import {
  defaultScheduleDraft,
  toScheduleSettings,
  type BrowserClock,
  type ScheduleDraft,
} from './schedule-draft';

/** What the scan form's Schedule Scan group holds (SPEC §3 Scan: enableSchedule, saveScheduleOnly). */
export interface ScheduleChoice {
  enabled: boolean;
  draft: ScheduleDraft;
  /** Only save the schedule; don't scan now. */
  saveOnly: boolean;
  /** Mail me when a run's broken links change. */
  notify: boolean;
}

export const defaultScheduleChoice: ScheduleChoice = {
  enabled: false,
  draft: defaultScheduleDraft,
  saveOnly: false,
  notify: true,
};

/** The schedule part of a scan submission (POST /api/ScanApi/). */
export function scheduleSubmission(
  choice: ScheduleChoice,
  clock: BrowserClock,
): Pick<
  CreateScanRequest,
  'enableSchedule' | 'scheduleSettings' | 'saveScheduleOnly' | 'notifyOnChange'
> {
  if (!choice.enabled) return { enableSchedule: false };
  return {
    enableSchedule: true,
    scheduleSettings: toScheduleSettings(choice.draft, clock),
    saveScheduleOnly: choice.saveOnly,
    notifyOnChange: choice.notify,
  };
}

/** The form only saves a schedule (no scan now): its button says so. */
export const savesScheduleOnly = (choice: ScheduleChoice) => choice.enabled && choice.saveOnly;
