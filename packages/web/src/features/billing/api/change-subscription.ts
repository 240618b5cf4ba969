import {
  changeSubscriptionQuerySchema,
  subscriptionStateSchema,
  type PaidPlanId,
} from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/Account/ChangeSubscription?newPlan= (paid to another paid plan). */
export function changeSubscription(newPlan: PaidPlanId) {
  const query = new URLSearchParams(changeSubscriptionQuerySchema.parse({ newPlan }));
  return apiRequest(
    `/api/Account/ChangeSubscription?${query.toString()}`,
    subscriptionStateSchema,
    {
      method: 'POST',
      json: {},
    },
  );
}
