/** What a provider told us about the person who signed in there. */
export interface ExternalIdentity {
  provider: string;
  /** The provider's stable id of the person (`sub`, or `id` at plain OAuth 2 providers). */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

/** Claims about the person: an ID token's, or a userinfo endpoint's JSON answer. */
export type PersonClaims = Record<string, unknown>;

/**
 * The person of a plain OAuth 2 userinfo answer: OpenID's `sub` where the provider speaks it,
 * else the `id` most OAuth 2 APIs use (a number at some, kept as its decimal text).
 */
export function subjectOfUserInfo(claims: PersonClaims): string {
  const candidate = claims.sub ?? claims.id;
  if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  if (typeof candidate === 'number' && Number.isSafeInteger(candidate)) return String(candidate);
  throw new Error('the userinfo answer names no person (neither "sub" nor "id")');
}

/** Address and names from OpenID's standard claims (`email`, `given_name`, or `name` split). */
export function toIdentity(
  provider: string,
  subject: string,
  claims: PersonClaims,
): ExternalIdentity {
  const text = (key: string): string | null => {
    const value = claims[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const fullName = text('name');
  const [first, ...rest] = fullName ? fullName.split(/\s+/) : [];
  return {
    provider,
    subject,
    email: text('email'),
    // Only an explicit yes: a plain OAuth 2 API that shows an address does not vouch for it.
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    firstName: text('given_name') ?? first ?? null,
    lastName: text('family_name') ?? (rest.length > 0 ? rest.join(' ') : null),
  };
}
