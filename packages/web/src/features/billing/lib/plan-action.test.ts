import { describe, expect, it } from 'vitest';
import { planAction, type PlanState } from './plan-action';

const free: PlanState = {
  paidPlanId: 'Free',
  cancelAtPeriodEnd: false,
  daysOfTrialLeft: 0,
  canceledAt: null,
  paymentGatewaySubscriptionId: null,
  paymentFailed: false,
};
const premiumTrial: PlanState = {
  ...free,
  paidPlanId: 'Premium',
  daysOfTrialLeft: 5,
  paymentGatewaySubscriptionId: 'sub_1',
};

describe('planAction (SPEC §4 Subscription)', () => {
  it('offers a visitor /join for Free and join-and-pay for a paid plan', () => {
    expect(planAction('Free', undefined)).toEqual({ kind: 'join' });
    expect(planAction('Premium', undefined)).toEqual({ kind: 'joinAndPay' });
  });

  it('opens checkout from Free without a gateway subscription, re-creates it with one', () => {
    expect(planAction('Basic', free)).toEqual({ kind: 'checkout' });
    expect(planAction('Basic', { ...free, paymentGatewaySubscriptionId: 'sub_1' })).toEqual({
      kind: 'recreate',
    });
  });

  it('shows the current plan with its trial days, and a cancelled one with its date', () => {
    expect(planAction('Premium', premiumTrial)).toEqual({
      kind: 'current',
      trialDaysLeft: 5,
      cancelled: false,
      canceledAt: null,
    });
    const cancelled = {
      ...premiumTrial,
      cancelAtPeriodEnd: true,
      canceledAt: '2026-01-02T00:00:00Z',
    };
    expect(planAction('Premium', cancelled)).toEqual({
      kind: 'current',
      trialDaysLeft: 5,
      cancelled: true,
      canceledAt: '2026-01-02T00:00:00Z',
    });
    expect(planAction('Free', free)).toMatchObject({ kind: 'current', cancelled: false });
  });

  it('changes between paid plans, upgrade by price', () => {
    expect(planAction('Enterprise', premiumTrial)).toEqual({ kind: 'change', upgrade: true });
    expect(planAction('Basic', premiumTrial)).toEqual({ kind: 'change', upgrade: false });
  });

  it('cancels to Free once; a second time says Already Cancelled', () => {
    expect(planAction('Free', premiumTrial)).toEqual({ kind: 'cancel' });
    expect(planAction('Free', { ...premiumTrial, cancelAtPeriodEnd: true })).toEqual({
      kind: 'alreadyCancelled',
    });
  });
});
