import { subscriptionStateSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/Account/ReactivateSubscription: undoes a cancellation before the period ends. */
export const reactivateSubscription = () =>
  apiRequest('/api/Account/ReactivateSubscription', subscriptionStateSchema, {
    method: 'POST',
    json: {},
  });
