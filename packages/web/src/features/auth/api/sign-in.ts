import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { signInRequestSchema, tokenResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';
import { setSessionToken } from '../../../lib/session';

export const signInFormSchema = signInRequestSchema;
export type SignInForm = z.input<typeof signInFormSchema>;

/** POST /token, form-encoded with grant_type=password (SPEC §7). */
export function signIn(form: SignInForm) {
  const values = signInFormSchema.parse(form);
  return apiRequest('/token', tokenResponseSchema, {
    method: 'POST',
    token: null,
    form: {
      grant_type: 'password',
      username: values.username,
      password: values.password,
      rememberMe: String(values.rememberMe ?? false),
    },
  });
}

export function useSignIn(options: { onSuccess?: () => void } = {}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: async (answer, form) => {
      // Without "remember me" the token lasts as long as the browser session (SPEC §3 Login).
      const { rememberMe } = signInFormSchema.parse(form);
      setSessionToken(answer.access_token, { persistent: rememberMe ?? false });
      await queryClient.invalidateQueries({ queryKey: ['user'] });
      toastSuccess(t('account.signIn.success'));
      options.onSuccess?.();
    },
  });
}
