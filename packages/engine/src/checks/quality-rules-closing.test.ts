import { describe, expect, it, vi } from 'vitest';
import { scanRequestSchema } from '@linkaudit/core';
import type * as RuleThread from '../rules/rule-thread.js';
import type { AsyncRuleRunner } from '../rules/rule-thread.js';
import { pageInput } from '../rules/test-support/rule-test.js';
import { QualityRules } from './quality-rules.js';

// The real runner, with its finishing counted: finishing is what closes a rule worker.
const finished = vi.hoisted(() => ({ count: 0 }));
vi.mock('../rules/rule-thread.js', async (importOriginal) => {
  const real = await importOriginal<typeof RuleThread>();
  return {
    ...real,
    startRuleRunner: (...args: Parameters<typeof real.startRuleRunner>): AsyncRuleRunner => {
      const runner = real.startRuleRunner(...args);
      return {
        checkPage: (page) => runner.checkPage(page),
        finishSite: () => {
          finished.count++;
          return runner.finishSite();
        },
        crawlWaits: (waiting) => runner.crawlWaits(waiting),
      };
    },
  };
});

// No title (4001) and a vague link (5004): the consumer gets events, and throws on the first.
const page = pageInput(
  '<!doctype html><html><head></head><body><a href="/x">click here</a></body></html>',
);

describe('closing the rules of a scan', () => {
  it('finishes the rules (closing their worker) even when the event consumer failed', async () => {
    const settings = scanRequestSchema.parse({ url: page.url, selectedRules: [4001, 5004] });
    const rules = QualityRules.forScan(settings, () => {
      throw new Error('the report is full');
    });
    if (!rules) throw new Error('rules were selected');
    await rules.checkPage(page);
    await expect(rules.finishSite()).rejects.toThrow('the report is full');
    expect(finished.count).toBe(1);
  });
});
