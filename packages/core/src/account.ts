import { z } from 'zod';
import { limits } from './limits.js';

/**
 * Account contracts of SPEC §3, §5 and §7 (Auth): the bodies and answers of /token and
 * /api/account/*. The server validates with these schemas and the web app drives its forms with
 * them, so a message is written once.
 */

/** Texts the server sends and the web shows as they are (SPEC §5, §8). */
export const accountMessages = {
  required: 'This field is required',
  invalidEmail: 'This is not a valid email address',
  passwordTooShort: `Use at least ${limits.minPasswordLength} characters`,
  passwordTooLong: 'Use at most 256 characters',
  passwordsMustMatch: 'Your passwords need to match',
  oldPasswordRequired: 'Please enter old password',
  oldPasswordIncorrect: 'The old password is incorrect.',
  invalidGrant: 'The user name or password is incorrect.',
  unsupportedGrantType: 'The grant type is not supported; use grant_type=password.',
  missingGrantType: 'The grant_type parameter is required; use grant_type=password.',
  missingCredentials: 'The user name and password are required.',
  unauthorized: 'Authorization has been denied for this request.',
  emailTaken: 'This e-mail address is already registered.',
  invalidConfirmationLink: 'The confirmation link is invalid or has expired.',
  invalidResetLink: 'The password reset link is invalid or has expired.',
  externalLoginTaken: 'The external login is already associated with an account.',
  invalidExternalLogin: 'The external login has expired or is not valid. Please sign in again.',
  loginNotFound: 'The login was not found.',
  unknownProvider: 'This login provider is not configured.',
  invalidRedirect: 'The return address must be on this site.',
} as const;

/** SPEC §5: a login that is the account's only way in cannot be removed. */
export function onlyLoginMessage(provider: string): string {
  return `Cannot remove ${provider} login. Because it's the only login for your account`;
}

/** SPEC §5: the login the current session came through cannot be removed. */
export function currentLoginMessage(provider: string): string {
  return `You are logged in with ${provider} account. Please sign in with another account to remove it`;
}

/** Issue 21: sign-ins of one account wait after repeated failures, whoever tries. */
export function signInWaitMessage(seconds: number): string {
  return `Too many failed sign-ins for this account. Try again in ${seconds} seconds.`;
}

/** The provider name of a password sign-in, as `currentLoginProvider` reports it. */
export const localLoginProvider = 'Local';

/** Languages of the interface and of the mails we send (SPEC §1). */
export const accountLanguages = ['en', 'zh-CN'] as const;
export const accountLanguageSchema = z.enum(accountLanguages);
export type AccountLanguage = z.infer<typeof accountLanguageSchema>;

export const accountRoles = ['user', 'admin'] as const;
export type AccountRole = (typeof accountRoles)[number];

/** Plan names of SPEC §3; billing (a later module) keeps the allowances. */
export const planIds = ['Free', 'Basic', 'Premium', 'Enterprise'] as const;
export type PlanId = (typeof planIds)[number];

const required = accountMessages.required;

function requiredText(maxLength: number) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(maxLength, { error: `Use at most ${maxLength} characters` });
}

/** A required e-mail address (user names are e-mail addresses). */
export const emailSchema = requiredText(254).pipe(z.email({ error: accountMessages.invalidEmail }));

/** A new password: required, at least 6 characters (SPEC §5, §9); one message at a time. */
export const newPasswordSchema = z
  .string({ error: required })
  .min(limits.minPasswordLength, {
    error: (issue) => (issue.input === '' ? required : accountMessages.passwordTooShort),
  })
  .max(256, { error: accountMessages.passwordTooLong });

/** A password being entered (sign in, old password): required only; old rules may have differed. */
const enteredPasswordSchema = z
  .string({ error: required })
  .min(1, { error: required })
  .max(256, { error: accountMessages.passwordTooLong });

const confirmationSchema = z.string({ error: required }).min(1, { error: required });

/**
 * Adds the "passwords need to match" check to a form. It is shown together with the other
 * fields' messages (zod would skip it while another field is missing) once both are typed.
 */
function withMatchingPasswords<Schema extends z.ZodObject>(
  schema: Schema,
  passwordKey: string,
): Schema {
  return schema.refine(
    (body: Record<string, unknown>) => body[passwordKey] === body.confirmPassword,
    {
      path: ['confirmPassword'],
      error: accountMessages.passwordsMustMatch,
      when: (payload) => {
        const value = payload.value as Record<string, unknown> | undefined;
        return (
          typeof value?.[passwordKey] === 'string' &&
          typeof value.confirmPassword === 'string' &&
          value.confirmPassword !== ''
        );
      },
    },
  );
}

/** Form values arrive as text in a form-encoded /token request. */
const formBooleanSchema = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0', ''])])
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

/** POST /api/account/register (SPEC §3 Registration). */
export const registerRequestSchema = withMatchingPasswords(
  z.object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    username: emailSchema,
    password: newPasswordSchema,
    confirmPassword: confirmationSchema,
    /** The interface language, for the mails we send; else taken from the request. */
    lang: accountLanguageSchema.optional(),
  }),
  'password',
);
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({ userName: z.string() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** The sign-in form (SPEC §3 Login); POST /token sends it form-encoded with grant_type=password. */
export const signInRequestSchema = z.object({
  username: emailSchema,
  password: enteredPasswordSchema,
  rememberMe: formBooleanSchema.optional(),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** POST /token answer: an OAuth 2 bearer token, with the fields the old client read. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int().positive(),
  userName: z.string(),
  '.issued': z.string(),
  '.expires': z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** POST /token failure, as OAuth 2 (RFC 6749 §5.2) defines it. */
export const tokenErrorSchema = z.object({
  error: z.enum(['invalid_request', 'invalid_grant', 'unsupported_grant_type']),
  error_description: z.string(),
});
export type TokenError = z.infer<typeof tokenErrorSchema>;

/** GET /api/account/userInfo (SPEC §3 User info, plus who the user is). */
export const userInfoSchema = z.object({
  userName: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: z.array(z.enum(accountRoles)),
  language: accountLanguageSchema,
  emailConfirmed: z.boolean(),
  /** False while an external sign-in still has to be completed at /registerExternal. */
  hasRegistered: z.boolean(),
  /** `Local` for a password sign-in, else the external provider's name. */
  loginProvider: z.string(),
  paymentFailed: z.boolean(),
  paidPlanId: z.enum(planIds),
  cancelAtPeriodEnd: z.boolean(),
  daysOfTrialLeft: z.number().int().nonnegative(),
  canceledAt: z.string().nullable(),
  paymentGatewaySubscriptionId: z.string().nullable(),
  voucher: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** GET /api/account/confirmEmail?code&userId. */
export const confirmEmailQuerySchema = z.object({
  code: requiredText(200),
  userId: requiredText(100),
});
export const confirmEmailResponseSchema = z.object({ userName: z.string() });

/** POST /api/account/forgotpassword. */
export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

/** POST /api/account/resetpassword (SPEC §3 Reset password). */
export const resetPasswordRequestSchema = withMatchingPasswords(
  z.object({
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: confirmationSchema,
    code: requiredText(200),
  }),
  'password',
);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/**
 * POST /api/account/changePassword (SPEC §3). The old password is required only when the account
 * has a local login; without one this sets the first password.
 */
export const changePasswordRequestSchema = withMatchingPasswords(
  z.object({
    oldPassword: z.string().max(256).optional(),
    newPassword: newPasswordSchema,
    confirmPassword: confirmationSchema,
  }),
  'newPassword',
);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** The change-password form of an account that has a local login: the old password is required. */
export const changeLocalPasswordRequestSchema = changePasswordRequestSchema.refine(
  (body) => (body.oldPassword ?? '') !== '',
  {
    path: ['oldPassword'],
    error: accountMessages.oldPasswordRequired,
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  },
);

/** `?returnUrl=/x&generateState=true` of externalLogins and manageInfo. */
export const externalLoginsQuerySchema = z.object({
  returnUrl: z.string().max(2000).default('/'),
  generateState: formBooleanSchema.default(false),
});

/** A sign-in option: the browser goes to `url` to sign in with that provider. */
export const externalLoginProviderSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  url: z.string(),
  /** The state the client should expect back in the redirect, when generateState was asked. */
  state: z.string().optional(),
});
export type ExternalLoginProvider = z.infer<typeof externalLoginProviderSchema>;
export const externalLoginsResponseSchema = z.array(externalLoginProviderSchema);

/** GET /api/account/manageInfo (SPEC §3 Manage info). */
export const manageInfoSchema = z.object({
  userName: z.string(),
  email: z.string(),
  hasLocalLoginProvider: z.boolean(),
  currentLoginProvider: z.string(),
  logins: z.array(
    z.object({ loginProvider: z.string(), providerKey: z.string(), displayName: z.string() }),
  ),
  externalLoginProviders: z.array(externalLoginProviderSchema),
});
export type ManageInfo = z.infer<typeof manageInfoSchema>;

/** POST /api/account/registerExternal (SPEC §3 External user). */
export const registerExternalRequestSchema = z.object({
  userName: emailSchema,
  firstName: requiredText(100),
  lastName: requiredText(100),
  lang: accountLanguageSchema.optional(),
});
export type RegisterExternalRequest = z.infer<typeof registerExternalRequestSchema>;

/** POST /api/account/addExternalLogin: the token the external sign-in redirect carried. */
export const addExternalLoginRequestSchema = z.object({
  externalAccessToken: requiredText(4000),
});

/** POST /api/account/removeLogin. */
export const removeLoginRequestSchema = z.object({
  loginProvider: requiredText(100),
  providerKey: requiredText(500),
});
export type RemoveLoginRequest = z.infer<typeof removeLoginRequestSchema>;

/** The answer of account calls that only succeed or fail. */
export const accountOkSchema = z.object({});
