import { voucherTypes, type CouponResponse, type Plan } from '@linkaudit/core';

/**
 * What the checkout dialog tells a person before they pay, with a voucher applied (SPEC §4
 * voucher types). Only a preview: the server computes every amount that is charged.
 */
export interface PricePreview {
  trialDays: number;
  monthlyPriceUsd: number;
  /** A 100 % voucher: nothing to pay, so no card is asked (SPEC §4). */
  free: boolean;
}

export function pricePreview(plan: Plan, coupon: CouponResponse | undefined): PricePreview {
  const base = { trialDays: plan.trialDays, monthlyPriceUsd: plan.monthlyPriceUsd, free: false };
  if (!coupon) return base;
  switch (coupon.type) {
    case voucherTypes.trialDays:
      return { ...base, trialDays: coupon.value };
    case voucherTypes.fixedCents:
      return { ...base, monthlyPriceUsd: Math.max(0, plan.monthlyPriceUsd - coupon.value / 100) };
    case voucherTypes.percent: {
      const percent = Math.min(100, coupon.value);
      const price = Math.round(plan.monthlyPriceUsd * (100 - percent)) / 100;
      return { ...base, monthlyPriceUsd: price, free: percent >= 100 };
    }
  }
}

export function formatUsd(amount: number, language: string): string {
  return amount.toLocaleString(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: amount === 0 ? 0 : 2,
  });
}
