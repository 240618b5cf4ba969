import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { registerExternalRequestSchema, tokenResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { toastSuccess } from '../../../lib/notify';
import { setSessionToken } from '../../../lib/session';

export const registerExternalFormSchema = registerExternalRequestSchema;
export type RegisterExternalForm = z.input<typeof registerExternalFormSchema>;

/** POST /api/account/registerExternal with the short external token; answers an access token. */
export const registerExternal = (form: RegisterExternalForm, externalToken: string) =>
  apiRequest('/api/account/registerExternal', tokenResponseSchema, {
    method: 'POST',
    token: externalToken,
    json: registerExternalFormSchema.parse({ ...form, lang: currentLanguage() }),
  });

export function useRegisterExternal(externalToken: string, onSuccess: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: RegisterExternalForm) => registerExternal(form, externalToken),
    onSuccess: async (answer) => {
      setSessionToken(answer.access_token);
      await queryClient.invalidateQueries({ queryKey: ['user'] });
      toastSuccess(t('account.join.success'));
      onSuccess();
    },
  });
}
