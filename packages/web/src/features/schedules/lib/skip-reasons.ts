import { scheduleSkipReasons } from '@linkaudit/core';

const keys = new Map<string, string>(
  Object.entries(scheduleSkipReasons).map(([key, text]) => [text, key]),
);

/**
 * The locale key under `schedule.skipReasons.` of a reason the server gave for skipping a run
 * (its English text of the contract), or undefined for a text we do not know.
 */
export function skipReasonKey(reason: string): string | undefined {
  return keys.get(reason);
}
