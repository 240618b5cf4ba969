import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountOkSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { clearSessionToken } from '../../../lib/session';

/** POST /api/account/logout revokes the token; the session ends here whatever the answer. */
export const signOut = () =>
  apiRequest('/api/account/logout', accountOkSchema, { method: 'POST', json: {} });

export function useSignOut(options: { onSettled?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    meta: { silent: true },
    onSettled: () => {
      clearSessionToken();
      queryClient.clear();
      options.onSettled?.();
    },
  });
}
