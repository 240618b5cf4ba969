import { queryOptions, useQuery } from '@tanstack/react-query';
import { externalLoginsResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { paths } from '../../../config/paths';

/** GET /api/account/externalLogins: sign-in options that come back to /registerExternal. */
export const getExternalLogins = () =>
  apiRequest(
    `/api/account/externalLogins?returnUrl=${encodeURIComponent(paths.registerExternal.path)}&generateState=true`,
    externalLoginsResponseSchema,
    { token: null },
  );

export const externalLoginsQueryOptions = () =>
  queryOptions({
    queryKey: ['external-logins'],
    queryFn: getExternalLogins,
    staleTime: 0,
    meta: { silent: true },
  });

export const useExternalLogins = () => useQuery(externalLoginsQueryOptions());
