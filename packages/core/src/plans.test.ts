import { describe, expect, it } from 'vitest';
import { parsePlanId, planOf, plans, setEnterpriseUrlsPerScan } from './plans.js';

describe('plans', () => {
  it('keeps SPEC §9: Free allows 5000 links per scan and costs nothing', () => {
    expect(plans.Free.urlsPerScan).toBe(5000);
    expect(plans.Free.monthlyPriceUsd).toBe(0);
    expect(
      [plans.Basic, plans.Premium, plans.Enterprise].map((plan) => plan.monthlyPriceUsd),
    ).toEqual([9.99, 29.99, 59.99]);
  });

  it('ranks the queue by plan: Enterprise first, Free last', () => {
    const order = Object.values(plans).sort((a, b) => b.queuePriority - a.queuePriority);
    expect(order.map((plan) => plan.id)).toEqual(['Enterprise', 'Premium', 'Basic', 'Free']);
  });

  it('treats unknown ids as Free and reads operator input in any case', () => {
    expect(planOf('Gold').id).toBe('Free');
    expect(planOf(null).id).toBe('Free');
    expect(parsePlanId('premium')).toBe('Premium');
    expect(parsePlanId('gold')).toBeUndefined();
  });

  it('lets an operator set the Enterprise cap of URLs per scan, and every reader sees it', () => {
    const listed = plans.Enterprise.urlsPerScan;
    try {
      setEnterpriseUrlsPerScan(1_100_000);
      expect(planOf('Enterprise').urlsPerScan).toBe(1_100_000);
      expect(plans.Enterprise.urlsPerScan).toBe(1_100_000);
      expect(planOf('Premium').urlsPerScan).toBe(100_000);
    } finally {
      setEnterpriseUrlsPerScan(listed);
    }
  });
});
