import { queryOptions, useQuery } from '@tanstack/react-query';
import { userInfoSchema } from '@linkaudit/core';
import { apiRequest } from '../api-client';
import { useSessionToken } from '../session';

/** GET /api/account/userInfo: who is signed in (SPEC §3 User info). */
export const getUserInfo = (token?: string) =>
  apiRequest('/api/account/userInfo', userInfoSchema, token ? { token } : {});

export const userInfoQueryOptions = (token: string | null) =>
  queryOptions({
    queryKey: ['user', token],
    queryFn: () => getUserInfo(),
    enabled: token !== null,
    staleTime: 60_000,
    // An expired token ends the session quietly (api-client); no toast for that.
    meta: { silent: true },
    retry: false,
  });

/** The signed-in user, or undefined for a visitor (or while loading). */
export function useUser() {
  const token = useSessionToken();
  const query = useQuery(userInfoQueryOptions(token));
  return { ...query, isSignedIn: token !== null, user: token ? query.data : undefined };
}
