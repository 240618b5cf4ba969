import { plans, type PlanId, type UserInfo } from '@linkaudit/core';

/** The parts of userInfo that decide what a plan's button does (SPEC §3 User info). */
export type PlanState = Pick<
  UserInfo,
  | 'paidPlanId'
  | 'cancelAtPeriodEnd'
  | 'daysOfTrialLeft'
  | 'canceledAt'
  | 'paymentGatewaySubscriptionId'
  | 'paymentFailed'
>;

/**
 * What choosing a plan means for this person (SPEC §4 Subscription), one closed case each:
 * - `join` / `joinAndPay`: a visitor; Free goes to /join, a paid plan opens join-and-pay.
 * - `current`: the plan they are on (with its trial days, or cancelled with a Reactivate action).
 * - `checkout`: Free to paid without a gateway subscription: the checkout dialog asks for a card.
 * - `recreate`: Free to paid when a gateway subscription exists: re-created after confirmation.
 * - `change`: paid to another paid plan, after confirmation (`upgrade` says which way).
 * - `cancel`: paid to Free, after confirmation; `alreadyCancelled` when it already ends.
 */
export type PlanAction =
  | { kind: 'join' }
  | { kind: 'joinAndPay' }
  | { kind: 'current'; trialDaysLeft: number; cancelled: boolean; canceledAt: string | null }
  | { kind: 'checkout' }
  | { kind: 'recreate' }
  | { kind: 'change'; upgrade: boolean }
  | { kind: 'cancel' }
  | { kind: 'alreadyCancelled' };

export function planAction(target: PlanId, state: PlanState | undefined): PlanAction {
  if (!state) return plans[target].paid ? { kind: 'joinAndPay' } : { kind: 'join' };
  const current = plans[state.paidPlanId];
  if (target === current.id) {
    return {
      kind: 'current',
      trialDaysLeft: current.paid ? state.daysOfTrialLeft : 0,
      cancelled: current.paid && state.cancelAtPeriodEnd,
      canceledAt: state.canceledAt,
    };
  }
  if (!plans[target].paid)
    return state.cancelAtPeriodEnd ? { kind: 'alreadyCancelled' } : { kind: 'cancel' };
  if (!current.paid)
    return state.paymentGatewaySubscriptionId ? { kind: 'recreate' } : { kind: 'checkout' };
  return { kind: 'change', upgrade: plans[target].monthlyPriceUsd > current.monthlyPriceUsd };
}
