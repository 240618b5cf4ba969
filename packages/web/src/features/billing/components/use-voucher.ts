import { useState } from 'react';
import type { CouponResponse } from '@linkaudit/core';
import { validateCoupon } from '../api/validate-coupon';
import { billingMessages } from '../lib/billing-messages';

export interface AppliedVoucher {
  code: string;
  coupon: CouponResponse;
}

/**
 * The voucher box of the checkout: what is typed, what the server accepted (ValidateCoupon) and
 * the refusal to show. `resolve` is what a submit waits for: the accepted voucher, none when the
 * box is empty, or false when the typed code is refused.
 */
export function useVoucher() {
  const [text, setText] = useState('');
  const [applied, setApplied] = useState<AppliedVoucher>();
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);

  const change = (value: string) => {
    setText(value);
    setError(undefined);
    if (applied && applied.code !== value) setApplied(undefined);
  };

  const resolve = async (): Promise<AppliedVoucher | undefined | false> => {
    const code = text.trim();
    if (code === '') return undefined;
    if (applied?.code === code) return applied;
    setChecking(true);
    try {
      const voucher = { code, coupon: await validateCoupon(code) };
      setApplied(voucher);
      return voucher;
    } catch {
      // Unknown, expired and used-up codes are all refused the same way (SPEC §8).
      setApplied(undefined);
      setError(billingMessages.invalidVoucher);
      return false;
    } finally {
      setChecking(false);
    }
  };

  return { text, change, applied, error, checking, resolve };
}

export type VoucherState = ReturnType<typeof useVoucher>;
