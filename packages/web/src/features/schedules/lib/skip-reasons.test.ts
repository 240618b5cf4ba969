import { describe, expect, it } from 'vitest';
import { scheduleSkipReasons } from '@linkaudit/core';
import { skipReasonKey } from './skip-reasons';

describe('skip reasons', () => {
  it('finds the key of every reason of the contract', () => {
    for (const [key, text] of Object.entries(scheduleSkipReasons)) {
      expect(skipReasonKey(text)).toBe(key);
    }
  });

  it('knows no key for another text', () => {
    expect(skipReasonKey('The moon was full.')).toBeUndefined();
  });
});
