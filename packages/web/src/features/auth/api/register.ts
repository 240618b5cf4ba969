import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { registerRequestSchema, registerResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { toastSuccess } from '../../../lib/notify';

export const registerFormSchema = registerRequestSchema;
export type RegisterForm = z.input<typeof registerFormSchema>;

/** POST /api/account/register; the confirmation mail goes out in the interface language. */
export const register = (form: RegisterForm) =>
  apiRequest('/api/account/register', registerResponseSchema, {
    method: 'POST',
    token: null,
    json: registerFormSchema.parse({ ...form, lang: currentLanguage() }),
  });

export function useRegister(options: { onSuccess?: () => void } = {}) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: register,
    onSuccess: () => {
      toastSuccess(t('account.join.success'));
      options.onSuccess?.();
    },
  });
}
