import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  accountMessages,
  changeLocalPasswordRequestSchema,
  changePasswordRequestSchema,
  currentLoginMessage,
  externalLoginsQuerySchema,
  onlyLoginMessage,
  registerRequestSchema,
  signInRequestSchema,
} from './account.js';

/** The messages a form shows, by field, as the server's modelState carries them. */
function messages(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  const byField: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? [])
    (byField[issue.path.join('.')] ??= []).push(issue.message);
  return byField;
}

describe('account contracts', () => {
  it('uses the SPEC §5 texts', () => {
    expect(accountMessages).toMatchObject({
      required: 'This field is required',
      invalidEmail: 'This is not a valid email address',
      passwordTooShort: 'Use at least 6 characters',
      passwordsMustMatch: 'Your passwords need to match',
      oldPasswordRequired: 'Please enter old password',
      invalidGrant: 'The user name or password is incorrect.',
      unauthorized: 'Authorization has been denied for this request.',
    });
    expect(onlyLoginMessage('Video Site')).toBe(
      "Cannot remove Video Site login. Because it's the only login for your account",
    );
    expect(currentLoginMessage('Video Site')).toBe(
      'You are logged in with Video Site account. Please sign in with another account to remove it',
    );
  });

  it('gives one message per field of the join form', () => {
    const required = [accountMessages.required];
    expect(messages(registerRequestSchema, {})).toEqual({
      firstName: required,
      lastName: required,
      username: required,
      password: required,
      confirmPassword: required,
    });
    expect(
      messages(registerRequestSchema, {
        firstName: '',
        lastName: 'L',
        username: 'a@',
        password: '',
        confirmPassword: 'x',
      }),
    ).toEqual({
      firstName: required,
      username: [accountMessages.invalidEmail],
      password: required,
      confirmPassword: [accountMessages.passwordsMustMatch],
    });
  });

  it('accepts a valid join form, trimming names and the address', () => {
    const parsed = registerRequestSchema.parse({
      firstName: ' Ada ',
      lastName: 'Lovelace',
      username: ' ada@example.com ',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(parsed).toMatchObject({ firstName: 'Ada', username: 'ada@example.com' });
  });

  it('reads rememberMe and generateState from form and query text', () => {
    expect(
      signInRequestSchema.parse({ username: 'a@b.cd', password: 'x', rememberMe: 'true' })
        .rememberMe,
    ).toBe(true);
    expect(
      signInRequestSchema.parse({ username: 'a@b.cd', password: 'x', rememberMe: 'false' })
        .rememberMe,
    ).toBe(false);
    expect(externalLoginsQuerySchema.parse({})).toEqual({ returnUrl: '/', generateState: false });
    expect(externalLoginsQuerySchema.parse({ generateState: 'true' }).generateState).toBe(true);
  });

  it('asks for the old password only on the form of an account that has one', () => {
    const body = { newPassword: 'secret2', confirmPassword: 'secret2' };
    expect(changePasswordRequestSchema.safeParse(body).success).toBe(true);
    expect(messages(changeLocalPasswordRequestSchema, body)).toEqual({
      oldPassword: [accountMessages.oldPasswordRequired],
    });
    expect(
      messages(changeLocalPasswordRequestSchema, {
        oldPassword: '',
        newPassword: 'abc',
        confirmPassword: 'abd',
      }),
    ).toEqual({
      oldPassword: [accountMessages.oldPasswordRequired],
      newPassword: [accountMessages.passwordTooShort],
      confirmPassword: [accountMessages.passwordsMustMatch],
    });
  });
});
