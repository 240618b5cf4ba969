import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatMegabytes } from './format';

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
});
