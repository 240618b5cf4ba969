import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('has working defaults for accounts and mail', () => {
    const config = loadConfig({ PORT: '4000' });
    expect(config.publicUrl).toBe('http://localhost:4000');
    expect(config.auth).toEqual({
      jwtSecret: undefined,
      accessTokenTtlSeconds: 86400,
      rememberMeTokenTtlSeconds: 30 * 86400,
      emailConfirmationTtlSeconds: 7 * 86400,
      passwordResetTtlSeconds: 3600,
      rateLimitPerMinute: 10,
      adminEmails: [],
      externalProviders: [],
    });
    expect(config.mail).toEqual({ smtpUrl: undefined, from: 'LinkAudit <no-reply@localhost>' });
  });

  it('defaults PUBLIC_URL to the address it listens on (start log and mail links, issue 37)', () => {
    expect(loadConfig({ PORT: '4000', HOST: '127.0.0.1' }).publicUrl).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ PORT: '4000', HOST: '::1' }).publicUrl).toBe('http://[::1]:4000');
    expect(loadConfig({ PORT: '4000', HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:4000');
  });

  it('reads the fair queue: running scans per user by plan, retry backoff (issue 36)', () => {
    expect(loadConfig({}).scans).toMatchObject({
      runningPerUser: { Free: 1, Basic: 2, Premium: 3, Enterprise: 5 },
      retryBackoffMs: 30_000,
      maxAttempts: 3,
    });
    const config = loadConfig({
      SCAN_RUNNING_PER_USER: 'Free=2, Enterprise=8',
      SCAN_RETRY_BACKOFF_MS: '500',
    });
    expect(config.scans.runningPerUser).toEqual({ Free: 2, Basic: 2, Premium: 3, Enterprise: 8 });
    expect(config.scans.retryBackoffMs).toBe(500);
    expect(problemsOf({ SCAN_RUNNING_PER_USER: 'Gold=3' })[0]).toMatch(
      /^SCAN_RUNNING_PER_USER: must be a comma-separated list of plan=number/,
    );
    expect(problemsOf({ SCAN_RUNNING_PER_USER: 'Free=0' })).toEqual([
      'SCAN_RUNNING_PER_USER: each number must be from 1 to 64',
    ]);
  });

  it('reads lifetimes, admins, mail and external providers', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://audit.example.com/',
      ACCESS_TOKEN_TTL: '12h',
      PASSWORD_RESET_TTL: '30m',
      ADMIN_EMAILS: ' Boss@Example.com, ops@example.com ,',
      SMTP_URL: 'smtps://user:pass@mail.example.com',
      OIDC_PROVIDERS: 'VideoSite,microblog',
      OIDC_VIDEOSITE_ISSUER: 'https://accounts.video.example',
      OIDC_VIDEOSITE_CLIENT_ID: 'id1',
      OIDC_VIDEOSITE_CLIENT_SECRET: 'secret1',
      OIDC_VIDEOSITE_DISPLAY_NAME: 'Video Site',
      OIDC_MICROBLOG_ISSUER: 'http://127.0.0.1:9000',
      OIDC_MICROBLOG_CLIENT_ID: 'id2',
      OIDC_MICROBLOG_CLIENT_SECRET: 'secret2',
      OIDC_MICROBLOG_SCOPES: 'openid email',
    });
    expect(config.publicUrl).toBe('https://audit.example.com');
    expect(config.auth.accessTokenTtlSeconds).toBe(12 * 3600);
    expect(config.auth.passwordResetTtlSeconds).toBe(1800);
    expect(config.auth.adminEmails).toEqual(['boss@example.com', 'ops@example.com']);
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example.com',
      from: 'LinkAudit <no-reply@audit.example.com>',
    });
    expect(config.auth.externalProviders).toEqual([
      {
        kind: 'issuer',
        name: 'videosite',
        displayName: 'Video Site',
        issuer: 'https://accounts.video.example',
        clientId: 'id1',
        clientSecret: 'secret1',
        scopes: 'openid email profile',
      },
      {
        kind: 'issuer',
        name: 'microblog',
        displayName: 'microblog',
        issuer: 'http://127.0.0.1:9000',
        clientId: 'id2',
        clientSecret: 'secret2',
        scopes: 'openid email',
      },
    ]);
  });

  it('reads providers configured by their endpoints instead of an issuer', () => {
    const config = loadConfig({
      OIDC_PROVIDERS: 'codehost',
      OIDC_CODEHOST_AUTHORIZATION_ENDPOINT: 'https://code.example/login/oauth/authorize',
      OIDC_CODEHOST_TOKEN_ENDPOINT: 'https://code.example/login/oauth/access_token',
      OIDC_CODEHOST_USERINFO_ENDPOINT: 'https://api.code.example/user',
      OIDC_CODEHOST_CLIENT_ID: 'id3',
      OIDC_CODEHOST_CLIENT_SECRET: 'secret3',
      OIDC_CODEHOST_DISPLAY_NAME: 'Code Host',
      OIDC_CODEHOST_SCOPES: 'read:user user:email',
    });
    expect(config.auth.externalProviders).toEqual([
      {
        kind: 'endpoints',
        name: 'codehost',
        displayName: 'Code Host',
        authorizationEndpoint: 'https://code.example/login/oauth/authorize',
        tokenEndpoint: 'https://code.example/login/oauth/access_token',
        userinfoEndpoint: 'https://api.code.example/user',
        clientId: 'id3',
        clientSecret: 'secret3',
        scopes: 'read:user user:email',
      },
    ]);
  });

  it('explains a provider with neither an issuer nor endpoints, with both, or with half', () => {
    const client = { OIDC_P_CLIENT_ID: 'id', OIDC_P_CLIENT_SECRET: 'secret' };
    expect(problemsOf({ OIDC_PROVIDERS: 'p', ...client })).toEqual([
      'OIDC_P_ISSUER: required for provider "p", unless it is configured by its endpoints (OIDC_P_AUTHORIZATION_ENDPOINT, OIDC_P_TOKEN_ENDPOINT, OIDC_P_USERINFO_ENDPOINT)',
    ]);
    expect(
      problemsOf({
        OIDC_PROVIDERS: 'p',
        ...client,
        OIDC_P_ISSUER: 'https://id.example',
        OIDC_P_TOKEN_ENDPOINT: 'https://id.example/token',
        OIDC_P_USERINFO_ENDPOINT: 'https://id.example/me',
      }),
    ).toEqual([
      'OIDC_P_ISSUER: provider "p" is configured by its issuer or by its endpoints, not both (OIDC_P_TOKEN_ENDPOINT, OIDC_P_USERINFO_ENDPOINT set too)',
      'OIDC_P_AUTHORIZATION_ENDPOINT: required for provider "p" without an issuer',
    ]);
    expect(
      problemsOf({
        OIDC_PROVIDERS: 'p',
        ...client,
        OIDC_P_AUTHORIZATION_ENDPOINT: 'https://id.example/authorize',
        OIDC_P_TOKEN_ENDPOINT: 'https://id.example/token',
      }),
    ).toEqual([
      'OIDC_P_USERINFO_ENDPOINT: required for provider "p" without an issuer (it tells who signed in)',
    ]);
  });

  it('sends codes and secrets to provider endpoints over https only (http on loopback)', () => {
    const endpoints = (authorization: string, token: string, userinfo: string) => ({
      OIDC_PROVIDERS: 'p',
      OIDC_P_CLIENT_ID: 'id',
      OIDC_P_CLIENT_SECRET: 'secret',
      OIDC_P_AUTHORIZATION_ENDPOINT: authorization,
      OIDC_P_TOKEN_ENDPOINT: token,
      OIDC_P_USERINFO_ENDPOINT: userinfo,
    });
    expect(
      problemsOf(endpoints('http://id.example/authorize', 'https://id.example/token', 'not a url')),
    ).toEqual([
      'OIDC_P_AUTHORIZATION_ENDPOINT: must be an https:// URL (http:// only on loopback)',
      'OIDC_P_USERINFO_ENDPOINT: must be an https:// URL (http:// only on loopback)',
    ]);
    expect(
      problemsOf(
        endpoints(
          'http://localhost:9000/authorize',
          'http://127.0.0.1:9000/token',
          'http://[::1]:9000/me',
        ),
      ),
    ).toEqual([]);
  });

  it('believes X-Forwarded-For only when told which proxies to trust', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(problemsOf({ TRUST_PROXY: 'yes please' })).toEqual([
      'TRUST_PROXY: must be true, false, a number of proxy hops, or a list of proxy addresses',
    ]);
  });

  it('takes an operator’s own cap of URLs per Enterprise scan, within bounds', () => {
    expect(loadConfig({}).scans.enterpriseUrlsPerScan).toBe(500_000);
    expect(loadConfig({ ENTERPRISE_URLS_PER_SCAN: '1100000' }).scans.enterpriseUrlsPerScan).toBe(
      1_100_000,
    );
    expect(problemsOf({ ENTERPRISE_URLS_PER_SCAN: '20000000' })).toHaveLength(1);
    expect(problemsOf({ ENTERPRISE_URLS_PER_SCAN: 'lots' })).toHaveLength(1);
  });

  it('lists every problem at once', () => {
    expect(
      problemsOf({
        JWT_SECRET: 'short',
        ACCESS_TOKEN_TTL: '12 hours',
        ADMIN_EMAILS: 'boss',
        SMTP_URL: 'mail.example.com',
        OIDC_PROVIDERS: 'videosite',
        OIDC_VIDEOSITE_ISSUER: 'http://accounts.video.example',
      }),
    ).toEqual([
      'JWT_SECRET: must be at least 32 characters',
      'ACCESS_TOKEN_TTL: must be a whole number followed by s, m, h or d (e.g. 30m, 12h, 7d)',
      'ADMIN_EMAILS.0: must be a comma-separated list of e-mail addresses',
      'SMTP_URL: must be an smtp:// or smtps:// URL',
    ]);
    expect(
      problemsOf({
        OIDC_PROVIDERS: 'videosite',
        OIDC_VIDEOSITE_ISSUER: 'http://accounts.video.example',
      }),
    ).toEqual([
      'OIDC_VIDEOSITE_ISSUER: must be an https:// URL (http:// only on loopback)',
      'OIDC_VIDEOSITE_CLIENT_ID: required for provider "videosite"',
      'OIDC_VIDEOSITE_CLIENT_SECRET: required for provider "videosite"',
    ]);
    expect(problemsOf({ OIDC_PROVIDERS: 'video-site' })).toEqual([
      'OIDC_PROVIDERS.0: provider names are letters and digits, starting with a letter',
    ]);
  });
});
