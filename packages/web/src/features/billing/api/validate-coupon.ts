import { couponResponseSchema, validateCouponQuerySchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/Account/ValidateCoupon?coupon= (SPEC §7); the code goes as typed (case sensitive). */
export function validateCoupon(coupon: string) {
  const query = validateCouponQuerySchema.parse({ coupon });
  return apiRequest(
    `/api/Account/ValidateCoupon?${new URLSearchParams(query).toString()}`,
    couponResponseSchema,
  );
}
