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

/** Signs and checks bearer tokens: HS256 JWTs (jose) with the server's secret. */
export class AccessTokens {
  readonly #key: Uint8Array;

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
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer,
        audience: [audiences.access, audiences.external],
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'jti', 'exp'],
      });
      const subject = payload.sub ?? '';
      if (payload.aud === audiences.external) return { kind: 'external', pendingLoginId: subject };
      if (typeof payload.ver !== 'number' || typeof payload.prov !== 'string') return null;
      return {
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
