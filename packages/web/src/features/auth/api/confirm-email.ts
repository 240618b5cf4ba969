import { queryOptions, useQuery } from '@tanstack/react-query';
import { confirmEmailQuerySchema, confirmEmailResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/account/confirmEmail?code&userId: the link of the confirmation mail. */
export const confirmEmail = (code: string, userId: string) =>
  apiRequest(
    `/api/account/confirmEmail?${new URLSearchParams(confirmEmailQuerySchema.parse({ code, userId })).toString()}`,
    confirmEmailResponseSchema,
    { token: null },
  );

export const confirmEmailQueryOptions = (code: string, userId: string) =>
  queryOptions({
    queryKey: ['confirm-email', code, userId],
    queryFn: () => confirmEmail(code, userId),
    enabled: code !== '' && userId !== '',
    retry: false,
    staleTime: Infinity,
    meta: { silent: true },
  });

export const useConfirmEmail = (code: string, userId: string) =>
  useQuery(confirmEmailQueryOptions(code, userId));
