import { describe, expect, it } from 'vitest';
import { scanRequestSchema } from '@linkaudit/core';
import { ruleCatalogue } from '../rules/index.js';
import type { RuleViolationEvent } from '../events.js';
import { QualityRules } from './quality-rules.js';

const page = {
  url: 'https://example.com/',
  statusCode: 200,
  headers: { 'content-type': 'text/html' },
  contentType: 'text/html',
  html: '<!doctype html><html><head><title>x</title></head><body><h1>Hi</h1></body></html>',
  bytes: 80,
  compressed: false,
  redirects: [],
  isStartPage: true,
};

describe('quality rules of one scan', () => {
  const settings = scanRequestSchema.parse({
    url: 'https://example.com/',
    selectedRules: ruleCatalogue().map((rule) => rule.linkAuditorRuleID),
  });

  it('counts a page the rules fail on as unchecked, with no findings, and carries on', async () => {
    const findings: RuleViolationEvent[] = [];
    const rules = QualityRules.forScan(settings, (event) => findings.push(event));
    if (!rules) throw new Error('rules were selected');
    // A page whose source is missing makes the rules throw: a stand-in for a rule's bug.
    const broken = {
      ...page,
      url: 'https://example.com/broken',
      html: undefined as unknown as string,
    };
    await rules.checkPage(broken);
    await rules.checkPage(page);
    await rules.finishSite();
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((finding) => finding.url === broken.url)).toEqual([]);
    expect(rules.tally()).toMatchObject({ checkedPages: 1, uncheckedPages: 1 });
  });

  it('reports no unchecked pages when every page was checked', async () => {
    const rules = QualityRules.forScan(settings, () => {});
    if (!rules) throw new Error('rules were selected');
    await rules.checkPage(page);
    await rules.finishSite();
    expect(rules.tally()).not.toHaveProperty('uncheckedPages');
    expect(rules.tally().checkedPages).toBe(1);
  });

  it('reports an exception of the event consumer at the end instead of losing it', async () => {
    const rules = QualityRules.forScan(settings, () => {
      throw new Error('the report is full');
    });
    if (!rules) throw new Error('rules were selected');
    await rules.checkPage(page);
    await expect(rules.finishSite()).rejects.toThrow('the report is full');
  });
});
