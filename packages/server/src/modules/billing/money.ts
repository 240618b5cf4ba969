import { plans, type PaidPlanId } from '@linkaudit/core';
import type { Discount } from './payment-gateway.js';

/** A plan's monthly price in US cents (core `plans` is the one price list). */
export function planPriceCents(plan: PaidPlanId): number {
  return Math.round(plans[plan].monthlyPriceUsd * 100);
}

/** What a month of `plan` costs after a voucher's discount; never below 0. */
export function discountedCents(plan: PaidPlanId, discount: Discount | null): number {
  const price = planPriceCents(plan);
  if (!discount) return price;
  const off =
    discount.kind === 'fixed'
      ? discount.amountOffCents
      : Math.round((price * Math.min(100, discount.percentOff)) / 100);
  return Math.max(0, price - off);
}

/** One calendar month later (UTC); the 31st becomes the last day of a shorter month. */
export function addMonth(date: Date): Date {
  const next = new Date(date.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
