import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatMegabytes, formatRank, formatSize } from './format';

const t = ((key: string, options: { value: number }) =>
  `${options.value} ${key.split('.').pop()}`) as unknown as TFunction;

describe('durations and sizes', () => {
  it('picks seconds, minutes, hours or days', () => {
    expect(formatDuration(4_400, t)).toBe('4 seconds');
    expect(formatDuration(90_000, t)).toBe('1.5 minutes');
    expect(formatDuration(2 * 3_600_000, t)).toBe('2 hours');
    expect(formatDuration(3 * 86_400_000, t)).toBe('3 days');
  });
  it('shows MB in base 1000', () => {
    expect(formatMegabytes(2_500_000)).toBe('2.50');
  });
  it('shows small sizes in B and kB, large in MB, base 1000 (SPEC §9)', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(12_345)).toBe('12.3 kB');
    expect(formatSize(999_949)).toBe('999.9 kB');
    expect(formatSize(2_500_000)).toBe('2.5 MB');
    expect(formatSize(2_345_678)).toBe('2.35 MB');
  });
  it('rounds page rank to three significant digits', () => {
    expect(formatRank(0.012345678901234567)).toBe('0.0123');
    expect(formatRank(0.25)).toBe('0.25');
  });
});
