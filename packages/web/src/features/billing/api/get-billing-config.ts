import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingConfigSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/billing/config: whether the card form is ours (sandbox) or Stripe Elements. */
export const getBillingConfig = () =>
  apiRequest('/api/billing/config', billingConfigSchema, { token: null });

export const billingConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['billing-config'],
    queryFn: getBillingConfig,
    staleTime: Infinity,
  });

export const useBillingConfig = () => useQuery(billingConfigQueryOptions());
