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

/**
 * A size for people (SPEC §9, base 1000): bytes under 1 kB, kB under 1 MB, MB above, so a small
 * page reads "12.3 kB", not "0.01 MB". Unit symbols are the same in every language.
 */
export function formatSize(bytes: number, language = 'en'): string {
  const number = (value: number, digits: number) =>
    new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
  if (bytes < 1000) return `${number(Math.max(0, bytes), 0)} B`;
  if (bytes < 1_000_000) return `${number(bytes / 1000, 1)} kB`;
  return `${number(bytes / 1_000_000, 2)} MB`;
}

/** A page rank (a share of the site's rank, well below 1) to three significant digits. */
export function formatRank(rank: number, language = 'en'): string {
  return new Intl.NumberFormat(language, { maximumSignificantDigits: 3 }).format(rank);
}
