import { afterEach, describe, expect, it, vi } from 'vitest';
import { scanRequestSchema } from '@linkaudit/core';
import type * as RuleThread from '../rules/rule-thread.js';
import type { AsyncRuleRunner } from '../rules/rule-thread.js';
import { pageInput } from '../rules/test-support/rule-test.js';
import { QualityRules, rulesBacklogLimits } from './quality-rules.js';

// The real runner, with what the crawl tells it about waiting written down.
const told = vi.hoisted(() => ({ crawlWaits: [] as boolean[] }));
vi.mock('../rules/rule-thread.js', async (importOriginal) => {
  const real = await importOriginal<typeof RuleThread>();
  return {
    ...real,
    startRuleRunner: (...args: Parameters<typeof real.startRuleRunner>): AsyncRuleRunner => {
      const runner = real.startRuleRunner(...args);
      return {
        checkPage: (page) => runner.checkPage(page),
        finishSite: () => runner.finishSite(),
        crawlWaits: (waiting) => {
          told.crawlWaits.push(waiting);
          runner.crawlWaits(waiting);
        },
      };
    },
  };
});

const saved = { ...rulesBacklogLimits };
afterEach(() => Object.assign(rulesBacklogLimits, saved));

const page = pageInput('<!doctype html><html><head></head><body><p>Spades</p></body></html>');

describe('the rules told when the crawl waits for them', () => {
  it('while their backlog is full until it is down to half, and once the crawl has ended', async () => {
    rulesBacklogLimits.items = 2;
    const settings = scanRequestSchema.parse({ url: page.url, selectedRules: [4001] });
    const rules = QualityRules.forScan(settings, () => {});
    if (!rules) throw new Error('rules were selected');
    // Three pages handed over before any is answered: the third passes the bound of two.
    const handed = [rules.checkPage(page), rules.checkPage(page)];
    expect(told.crawlWaits).toEqual([]);
    handed.push(rules.checkPage(page));
    expect(told.crawlWaits).toEqual([true]);
    await Promise.all(handed);
    expect(told.crawlWaits).toEqual([true, false]);
    await rules.finishSite();
    expect(told.crawlWaits).toEqual([true, false, true]);
    expect(rules.tally().checkedPages).toBe(3);
  });
});
