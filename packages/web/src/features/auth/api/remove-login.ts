import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  accountOkSchema,
  removeLoginRequestSchema,
  type RemoveLoginRequest,
} from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';

/** POST /api/account/removeLogin. */
export const removeLogin = (body: RemoveLoginRequest) =>
  apiRequest('/api/account/removeLogin', accountOkSchema, {
    method: 'POST',
    json: removeLoginRequestSchema.parse(body),
  });

export function useRemoveLogin() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (login: RemoveLoginRequest & { displayName: string }) =>
      removeLogin({ loginProvider: login.loginProvider, providerKey: login.providerKey }),
    onSuccess: async (_answer, login) => {
      toastSuccess(t('account.manage.loginRemoved', { provider: login.displayName }));
      await queryClient.invalidateQueries({ queryKey: ['manage-info'] });
    },
  });
}
