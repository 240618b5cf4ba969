import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { accountOkSchema, resetPasswordRequestSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';

export const resetPasswordFormSchema = resetPasswordRequestSchema;
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;

/** POST /api/account/resetpassword with the address and code of the mailed link. */
export const resetPassword = (form: ResetPasswordForm) =>
  apiRequest('/api/account/resetpassword', accountOkSchema, {
    method: 'POST',
    token: null,
    json: resetPasswordFormSchema.parse(form),
  });

export function useResetPassword(options: { onSuccess?: () => void } = {}) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      toastSuccess(t('account.resetPassword.success'));
      options.onSuccess?.();
    },
  });
}
