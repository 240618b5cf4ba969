import {
  createSubscriptionQuerySchema,
  subscriptionStateSchema,
  type PaidPlanId,
} from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/Account/CreateSubscription?planId=: Free to paid when the gateway knows the card. */
export function createSubscription(planId: PaidPlanId) {
  const query = new URLSearchParams(createSubscriptionQuerySchema.parse({ planId }));
  return apiRequest(
    `/api/Account/CreateSubscription?${query.toString()}`,
    subscriptionStateSchema,
    {
      method: 'POST',
      json: {},
    },
  );
}
