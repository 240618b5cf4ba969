import {
  registerRequestSchema,
  registerResponseSchema,
  tokenResponseSchema,
  type RegisterRequest,
} from '@linkaudit/core';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { setSessionToken } from '../../../lib/session';

export const joinFormSchema = registerRequestSchema;
export type JoinForm = z.input<typeof joinFormSchema>;

/**
 * The account half of join-and-pay (SPEC §2 Dialogs): POST /api/account/register, then POST
 * /token, so the payment that follows is made by the new account. The session is kept like a
 * sign-in without "remember me". Answers who will be billed.
 */
export async function joinAndSignIn(form: JoinForm): Promise<RegisterRequest> {
  const account = joinFormSchema.parse({ ...form, lang: currentLanguage() });
  await apiRequest('/api/account/register', registerResponseSchema, {
    method: 'POST',
    token: null,
    json: account,
  });
  const answer = await apiRequest('/token', tokenResponseSchema, {
    method: 'POST',
    token: null,
    form: { grant_type: 'password', username: account.username, password: account.password },
  });
  setSessionToken(answer.access_token, { persistent: false });
  return account;
}
