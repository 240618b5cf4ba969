import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../clock.js';

const issuer = 'linkaudit';
/** Access tokens and the short-lived tokens of an external sign-in never stand in for each other. */
const audiences = { access: 'linkaudit-api', external: 'linkaudit-external-login' } as const;

/** What an access token says: whose it is and which sign-in produced it. */
export interface AccessTokenClaims {
  userId: string;
  /** Must equal the user's current token version, else the token was revoked. */
  tokenVersion: number;
  /** `Local` or the external provider's name. */
  loginProvider: string;
  tokenId: string;
  expiresAt: Date;
}

export type VerifiedToken =
  ({ kind: 'access' } & AccessTokenClaims) | { kind: 'external'; pendingLoginId: string };

export interface IssuedToken {
  token: string;
  tokenId: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Tokens whose signature was checked, kept so that a client's next call is not checked again. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs and checks bearer tokens: HS256 JWTs (jose) with the server's secret. A token whose
 * signature and claims were found good is remembered until it expires (at most
 * VERIFIED_TOKENS_KEPT, the oldest forgotten first): jose checks HS256 through WebCrypto, an
 * asynchronous job per call, which was 18 % of the API thread's time under the load bench (every
 * request of a signed-in client verifies its token). What a token says cannot change, so keeping
 * the answer is safe; whether it was revoked is not part of it (the caller looks that up each time).
 */
export class AccessTokens {
  readonly #key: Uint8Array;
  readonly #verified = new Map<string, VerifiedToken & { validUntil: number }>();

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  issueAccess(
    claims: Omit<AccessTokenClaims, 'tokenId' | 'expiresAt'>,
    lifetimeSeconds: number,
  ): Promise<IssuedToken> {
    return this.#sign(
      audiences.access,
      claims.userId,
      { ver: claims.tokenVersion, prov: claims.loginProvider },
      lifetimeSeconds,
    );
  }

  issueExternal(pendingLoginId: string, lifetimeSeconds: number): Promise<IssuedToken> {
    return this.#sign(audiences.external, pendingLoginId, {}, lifetimeSeconds);
  }

  /** The claims of a valid token, or null for anything expired, forged or malformed. */
  async verify(token: string): Promise<VerifiedToken | null> {
    const kept = this.#verified.get(token);
    if (kept) {
      const { validUntil, ...claims } = kept;
      if (this.clock.now().getTime() < validUntil) return claims;
      this.#verified.delete(token);
      return null;
    }
    const checked = await this.#check(token);
    if (!checked) return null;
    this.#keep(token, checked);
    const { validUntil: _validUntil, ...claims } = checked;
    return claims;
  }

  #keep(token: string, claims: VerifiedToken & { validUntil: number }): void {
    if (this.#verified.size >= VERIFIED_TOKENS_KEPT) {
      this.#verified.delete(this.#verified.keys().next().value!);
    }
    this.#verified.set(token, claims);
  }

  async #check(token: string): Promise<(VerifiedToken & { validUntil: number }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer,
        audience: [audiences.access, audiences.external],
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'jti', 'exp'],
      });
      const subject = payload.sub ?? '';
      // jose refused a token without exp; with nbf in the future it refused it too.
      const validUntil = (payload.exp ?? 0) * 1000;
      if (payload.aud === audiences.external) {
        return { kind: 'external', pendingLoginId: subject, validUntil };
      }
      if (typeof payload.ver !== 'number' || typeof payload.prov !== 'string') return null;
      return {
        validUntil,
        kind: 'access',
        userId: subject,
        tokenVersion: payload.ver,
        loginProvider: payload.prov,
        tokenId: payload.jti ?? '',
        expiresAt: new Date((payload.exp ?? 0) * 1000),
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  async #sign(
    audience: string,
    subject: string,
    claims: Record<string, string | number>,
    lifetimeSeconds: number,
  ): Promise<IssuedToken> {
    const issuedAtSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const expiresAtSeconds = issuedAtSeconds + lifetimeSeconds;
    const tokenId = randomUUID();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setJti(tokenId)
      .setIssuedAt(issuedAtSeconds)
      .setExpirationTime(expiresAtSeconds)
      .sign(this.#key);
    return {
      token,
      tokenId,
      issuedAt: new Date(issuedAtSeconds * 1000),
      expiresAt: new Date(expiresAtSeconds * 1000),
    };
  }
}

/**
 * The configured JWT_SECRET, or one generated on first start and kept in DATA_DIR (mode 0600),
 * so tokens survive restarts of an embedded server. Scaled deployments set JWT_SECRET so every
 * api process shares it.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    // "wx": when two processes start at once, the first one's secret wins and both use it.
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8').trim();
  }
}
