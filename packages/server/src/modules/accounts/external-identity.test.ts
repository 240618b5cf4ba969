import { describe, expect, it } from 'vitest';
import { subjectOfUserInfo, toIdentity } from './external-identity.js';

describe('the person a provider names', () => {
  it('is the OpenID `sub`, else the `id` of plain OAuth 2 APIs', () => {
    expect(subjectOfUserInfo({ sub: 'abc', id: 1 })).toBe('abc');
    expect(subjectOfUserInfo({ id: 583231, login: 'octocat' })).toBe('583231');
    expect(subjectOfUserInfo({ id: ' u-17 ' })).toBe('u-17');
  });

  it('is nobody when neither names a person usably', () => {
    for (const claims of [{}, { login: 'octocat' }, { id: '' }, { id: 2 ** 60 }, { id: 1.5 }]) {
      expect(() => subjectOfUserInfo(claims)).toThrow(/neither "sub" nor "id"/);
    }
  });

  it('reads the address and names, and trusts the address only when vouched for', () => {
    expect(
      toIdentity('codehost', '1', { name: 'Mona Lisa Octocat', email: 'm@example.com' }),
    ).toEqual({
      provider: 'codehost',
      subject: '1',
      email: 'm@example.com',
      emailVerified: false,
      firstName: 'Mona',
      lastName: 'Lisa Octocat',
    });
    expect(
      toIdentity('videosite', 's', {
        name: 'Ignored Name',
        given_name: 'Vid',
        family_name: 'Eo',
        email: 'v@example.com',
        email_verified: true,
      }),
    ).toMatchObject({ emailVerified: true, firstName: 'Vid', lastName: 'Eo' });
    expect(toIdentity('codehost', '2', { name: null, email: 42 })).toMatchObject({
      email: null,
      firstName: null,
      lastName: null,
    });
  });
});
