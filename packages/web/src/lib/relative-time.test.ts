import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const now = new Date('2026-11-26T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('relative times', () => {
  it('reads anything under a minute as this minute, in both languages', () => {
    expect(formatRelativeTime(ago(6), 'en', now)).toBe('this minute');
    expect(formatRelativeTime(ago(59), 'en', now)).toBe('this minute');
    expect(formatRelativeTime(ago(6), 'zh-CN', now)).toBe('此刻');
  });
  it('counts whole units down, so 89 seconds is still 1 minute', () => {
    expect(formatRelativeTime(ago(61), 'en', now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(119), 'en', now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(5400), 'en', now)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(3 * 86_400), 'zh-CN', now)).toBe('3天前');
  });
});
