import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../clock.js';
import { AccessTokens, resolveJwtSecret } from './access-tokens.js';
import { codeMatches, hashCode, newCode } from './one-time-codes.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { preferredLanguage } from './request-language.js';

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
  });
});

describe('one-time codes', () => {
  it('are random, stored as SHA-256 and compared against the stored hash', () => {
    const code = newCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newCode()).not.toBe(code);
    expect(hashCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(codeMatches(code, hashCode(code))).toBe(true);
    expect(codeMatches(`${code}x`, hashCode(code))).toBe(false);
    expect(codeMatches(code, 'short')).toBe(false);
  });
});

describe('access tokens', () => {
  it('are generated once per data folder and kept for the next start', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linkaudit-secret-'));
    try {
      const first = resolveJwtSecret(undefined, dataDir);
      expect(first.length).toBeGreaterThanOrEqual(64);
      expect(resolveJwtSecret(undefined, dataDir)).toBe(first);
      expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
      expect(statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
      expect(resolveJwtSecret('x'.repeat(32), dataDir)).toBe('x'.repeat(32));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('verify what the same secret signed, and nothing else', async () => {
    const tokens = new AccessTokens('s'.repeat(48), systemClock);
    const issued = await tokens.issueAccess(
      { userId: 'u1', tokenVersion: 3, loginProvider: 'Local' },
      60,
    );
    expect(await tokens.verify(issued.token)).toEqual({
      kind: 'access',
      userId: 'u1',
      tokenVersion: 3,
      loginProvider: 'Local',
      tokenId: issued.tokenId,
      expiresAt: issued.expiresAt,
    });
    const external = await tokens.issueExternal('pending-1', 60);
    expect(await tokens.verify(external.token)).toEqual({
      kind: 'external',
      pendingLoginId: 'pending-1',
    });
    const other = new AccessTokens('t'.repeat(48), systemClock);
    expect(await other.verify(issued.token)).toBeNull();
    expect(await tokens.verify('a.b.c')).toBeNull();
    const later = new AccessTokens('s'.repeat(48), { now: () => new Date(Date.now() + 61_000) });
    expect(await later.verify(issued.token)).toBeNull();
  });

  it('remember a checked token only until it expires, and never a forged one', async () => {
    let offsetMs = 0;
    const tokens = new AccessTokens('s'.repeat(48), {
      now: () => new Date(Date.now() + offsetMs),
    });
    const issued = await tokens.issueAccess(
      { userId: 'u1', tokenVersion: 1, loginProvider: 'Local' },
      60,
    );
    const first = await tokens.verify(issued.token);
    expect(first).toMatchObject({ kind: 'access', userId: 'u1' });
    // The second answer is the kept one, and the same.
    expect(await tokens.verify(issued.token)).toEqual(first);
    // A token with the same claims but another signature is checked, not taken from memory.
    const [header, payload] = issued.token.split('.');
    expect(await tokens.verify(`${header}.${payload}.${'A'.repeat(43)}`)).toBeNull();
    offsetMs = 61_000;
    expect(await tokens.verify(issued.token)).toBeNull();
    offsetMs = 0;
    // Once expired it was forgotten: the clock turned back, it is checked again (and is good).
    expect(await tokens.verify(issued.token)).toEqual(first);
  });
});

describe('mail language from Accept-Language', () => {
  it.each([
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en'],
    ['fr-FR,zh;q=0.5,en;q=0.4', 'zh-CN'],
    ['de-DE', 'en'],
    ['', 'en'],
    ['zh;q=0, en', 'en'],
  ])('%j → %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });
});
