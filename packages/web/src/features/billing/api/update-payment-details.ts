import {
  subscriptionStateSchema,
  updatePaymentDetailsRequestSchema,
  type UpdatePaymentDetailsRequest,
} from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/Account/UpdatePaymentDetails: a new card; the server retries a failed invoice. */
export const updatePaymentDetails = (request: UpdatePaymentDetailsRequest) =>
  apiRequest('/api/Account/UpdatePaymentDetails', subscriptionStateSchema, {
    method: 'POST',
    json: updatePaymentDetailsRequestSchema.parse(request),
  });
