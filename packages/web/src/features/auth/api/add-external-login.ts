import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountOkSchema, addExternalLoginRequestSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';

/** POST /api/account/addExternalLogin with the token the provider's redirect carried. */
export const addExternalLogin = (externalAccessToken: string) =>
  apiRequest('/api/account/addExternalLogin', accountOkSchema, {
    method: 'POST',
    json: addExternalLoginRequestSchema.parse({ externalAccessToken }),
  });

export function useAddExternalLogin() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addExternalLogin,
    onSuccess: async () => {
      toastSuccess(t('account.manage.loginAdded'));
      // The add runs as /manage opens, while its first manage-info fetch may still be under way;
      // invalidating would wait for that fetch (a query without data is never cancelled for a
      // refetch) and keep its answer, from before the add. Cancel it, then fetch anew.
      await queryClient.cancelQueries({ queryKey: ['manage-info'] });
      await queryClient.invalidateQueries({ queryKey: ['manage-info'] });
    },
  });
}
