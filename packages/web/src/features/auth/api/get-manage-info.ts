import { queryOptions, useQuery } from '@tanstack/react-query';
import { manageInfoSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { paths } from '../../../config/paths';

/** GET /api/account/manageInfo: logins of the account and providers it can still add. */
export const getManageInfo = () =>
  apiRequest(
    `/api/account/manageInfo?returnUrl=${encodeURIComponent(paths.manage.path)}&generateState=true`,
    manageInfoSchema,
  );

export const manageInfoQueryOptions = () =>
  queryOptions({ queryKey: ['manage-info'], queryFn: getManageInfo, staleTime: 0 });

export const useManageInfo = () => useQuery(manageInfoQueryOptions());
