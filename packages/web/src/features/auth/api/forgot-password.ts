import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { accountOkSchema, forgotPasswordRequestSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

export const forgotPasswordFormSchema = forgotPasswordRequestSchema;
export type ForgotPasswordForm = z.input<typeof forgotPasswordFormSchema>;

/** POST /api/account/forgotpassword: answers the same whether or not the address exists. */
export const forgotPassword = (form: ForgotPasswordForm) =>
  apiRequest('/api/account/forgotpassword', accountOkSchema, {
    method: 'POST',
    token: null,
    json: forgotPasswordFormSchema.parse(form),
  });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
