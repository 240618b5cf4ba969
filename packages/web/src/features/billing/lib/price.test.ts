import { describe, expect, it } from 'vitest';
import { plans } from '@linkaudit/core';
import { pricePreview } from './price';

describe('pricePreview (SPEC §4 voucher types)', () => {
  it('keeps the plan price and the 7-day trial without a voucher', () => {
    expect(pricePreview(plans.Premium, undefined)).toEqual({
      trialDays: 7,
      monthlyPriceUsd: 29.99,
      free: false,
    });
  });

  it('type 0 extends the trial to value days', () => {
    expect(pricePreview(plans.Premium, { type: 0, value: 30 }).trialDays).toBe(30);
  });

  it('type 1 takes value cents off, never below zero', () => {
    expect(pricePreview(plans.Basic, { type: 1, value: 500 }).monthlyPriceUsd).toBeCloseTo(4.99);
    expect(pricePreview(plans.Basic, { type: 1, value: 5000 }).monthlyPriceUsd).toBe(0);
  });

  it('type 2 takes a percentage off; 100 % asks no card', () => {
    expect(pricePreview(plans.Enterprise, { type: 2, value: 50 })).toMatchObject({
      monthlyPriceUsd: 30,
      free: false,
    });
    expect(pricePreview(plans.Enterprise, { type: 2, value: 100 })).toMatchObject({
      monthlyPriceUsd: 0,
      free: true,
    });
  });
});
