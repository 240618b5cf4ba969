import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  changeLocalPasswordRequestSchema,
  changePasswordRequestSchema,
  tokenResponseSchema,
} from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';
import { setSessionToken } from '../../../lib/session';

/** With a local login the old password is required; without one this sets the first password. */
export const changePasswordFormSchema = (hasLocalLogin: boolean) =>
  hasLocalLogin ? changeLocalPasswordRequestSchema : changePasswordRequestSchema;
export type ChangePasswordForm = z.input<typeof changePasswordRequestSchema>;

/** POST /api/account/changePassword; the answer is a fresh token for this session. */
export const changePassword = (form: ChangePasswordForm) =>
  apiRequest('/api/account/changePassword', tokenResponseSchema, {
    method: 'POST',
    json: changePasswordRequestSchema.parse(form),
  });

export function useChangePassword(options: { onSuccess?: () => void } = {}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: async (answer) => {
      setSessionToken(answer.access_token);
      await queryClient.invalidateQueries({ queryKey: ['manage-info'] });
      toastSuccess(t('account.manage.passwordUpdated'));
      options.onSuccess?.();
    },
  });
}
