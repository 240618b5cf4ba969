import { cancelSubscriptionResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/Account/CancelSubscription: ends the plan at period end; answers the end date. */
export const cancelSubscription = () =>
  apiRequest('/api/Account/CancelSubscription', cancelSubscriptionResponseSchema, {
    method: 'POST',
    json: {},
  });
