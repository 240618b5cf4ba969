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
        name: 'videosite',
        displayName: 'Video Site',
        issuer: 'https://accounts.video.example',
        clientId: 'id1',
        clientSecret: 'secret1',
        scopes: 'openid email profile',
      },
      {
        name: 'microblog',
        displayName: 'microblog',
        issuer: 'http://127.0.0.1:9000',
        clientId: 'id2',
        clientSecret: 'secret2',
        scopes: 'openid email',
      },
    ]);
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
