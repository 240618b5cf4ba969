import {
  processPaymentRequestSchema,
  subscriptionStateSchema,
  type ProcessPaymentRequest,
} from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/Account/ProcessPayment (SPEC §7): card token, plan, billingUser (and voucher). */
export const processPayment = (request: ProcessPaymentRequest) =>
  apiRequest('/api/Account/ProcessPayment', subscriptionStateSchema, {
    method: 'POST',
    json: processPaymentRequestSchema.parse(request),
  });
