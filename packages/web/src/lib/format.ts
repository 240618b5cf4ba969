import type { TFunction } from 'i18next';

/** A duration in the largest fitting unit: seconds, minutes, hours, days (SPEC §9). */
export function formatDuration(ms: number, t: TFunction): string {
  const seconds = Math.max(0, ms) / 1000;
  const units: Array<[number, string]> = [
    [86_400, 'days'],
    [3600, 'hours'],
    [60, 'minutes'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size) {
      return t(`scan.duration.${unit}`, { value: Math.round((seconds / size) * 10) / 10 });
    }
  }
  return t('scan.duration.seconds', { value: Math.round(seconds) });
}

/** Bytes as MB with the display base of SPEC §9 (1000). */
export function formatMegabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(2);
}
