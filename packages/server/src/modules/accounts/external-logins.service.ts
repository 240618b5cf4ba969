import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  accountMessages,
  currentLoginMessage,
  onlyLoginMessage,
  type AccountLanguage,
  type ExternalLoginProvider,
  type ManageInfo,
  type RegisterExternalRequest,
  type RemoveLoginRequest,
  type TokenResponse,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Credential, ExternalSignIn, SignedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { AccessTokens } from './access-tokens.js';
import { findPasswordHash, findUserById, normalizeEmail } from './accounts.repository.js';
import type { AccountService } from './accounts.service.js';
import {
  deleteExternalLogin,
  deletePendingExternalLogin,
  findExternalLogin,
  findPendingExternalLogin,
  insertExternalLogin,
  insertExternalLoginRequest,
  insertPendingExternalLogin,
  listExternalLogins,
  takeExternalLoginRequest,
} from './external-logins.repository.js';
import type { ExternalIdentity } from './external-identity.js';
import { OidcProviders } from './oidc-providers.js';

export interface ExternalLoginDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  tokens: AccessTokens;
  providers: OidcProviders;
  accounts: AccountService;
  /** A provider that refuses our code exchange is the operator's to see, not the user's. */
  log: FastifyBaseLogger;
}

/** How long the browser may take at the provider. */
const requestLifetimeSeconds = 10 * 60;
/** How long an unknown external identity may take to finish registering. */
const pendingLifetimeSeconds = 30 * 60;

/** Where the browser goes next, and the request a cookie ties to this browser. */
export interface ExternalLoginStart {
  requestId: string;
  authorizationUrl: string;
}

/**
 * External logins (SPEC §7): sign-in options, the OpenID Connect or OAuth 2 round trip,
 * registration of a new external identity, and linking and unlinking logins of an account
 * (docs/decisions.md, "Accounts").
 */
export class ExternalLoginService {
  constructor(private readonly deps: ExternalLoginDeps) {}

  /** GET externalLogins: one link per configured provider that starts a sign-in there. */
  providerLinks(returnUrl: string, generateState: boolean): ExternalLoginProvider[] {
    const redirectUri = this.#sameSiteUrl(returnUrl);
    return this.deps.providers.list().map((provider) => {
      const state = generateState ? randomUUID().replaceAll('-', '') : undefined;
      const query = new URLSearchParams({
        provider: provider.name,
        response_type: 'token',
        client_id: 'self',
        redirect_uri: redirectUri,
      });
      if (state) query.set('state', state);
      const link = {
        name: provider.name,
        displayName: provider.displayName,
        url: `/api/account/externalLogin?${query.toString()}`,
      };
      return state ? { ...link, state } : link;
    });
  }

  async manageInfo(
    user: SignedInUser,
    returnUrl: string,
    generateState: boolean,
  ): Promise<ManageInfo> {
    const { db, providers } = this.deps;
    const logins = await listExternalLogins(db, user.id);
    return {
      userName: user.email,
      email: user.email,
      hasLocalLoginProvider: (await findPasswordHash(db, user.id)) !== undefined,
      currentLoginProvider: user.loginProvider,
      logins: logins.map((login) => ({
        loginProvider: login.provider,
        providerKey: login.providerKey,
        displayName: providers.displayName(login.provider),
      })),
      externalLoginProviders: this.providerLinks(returnUrl, generateState),
    };
  }

  /** GET externalLogin: remembers the request's secrets and sends the browser to the provider. */
  async start(query: {
    provider: string;
    redirectUri: string;
    state?: string | undefined;
  }): Promise<ExternalLoginStart> {
    const { db, clock, providers } = this.deps;
    const provider = providers.find(query.provider);
    if (!provider) throw new HttpError(400, accountMessages.unknownProvider);
    const redirectUri = this.#sameSiteUrl(query.redirectUri);
    const checks = OidcProviders.newChecks();
    const authorizationUrl = await providers
      .authorizationUrl(provider, checks)
      .catch((error: unknown) => {
        throw new HttpError(
          502,
          `${provider.displayName} cannot be reached; please try again later.`,
          {
            exceptionMessage: error instanceof Error ? error.message : undefined,
          },
        );
      });
    const now = clock.now();
    await insertExternalLoginRequest(
      db,
      {
        id: checks.state,
        provider: provider.name,
        codeVerifier: checks.codeVerifier,
        nonce: checks.nonce,
        redirectUri,
        clientState: query.state ?? null,
        expiresAt: new Date(now.getTime() + requestLifetimeSeconds * 1000),
      },
      now,
    );
    return { requestId: checks.state, authorizationUrl: authorizationUrl.href };
  }

  /**
   * The provider's redirect back: checks it against the stored request (which this browser's
   * cookie must name), then answers where the browser goes, with a token in the URL fragment.
   */
  async finish(
    providerName: string,
    query: URLSearchParams,
    browserRequestId: string | undefined,
  ): Promise<string> {
    const { db, clock, providers } = this.deps;
    const request = await takeExternalLoginRequest(db, query.get('state') ?? '');
    const provider = providers.find(providerName);
    if (
      !request ||
      !provider ||
      request.provider !== provider.name ||
      request.expiresAt <= clock.now()
    ) {
      return withFragment(`${this.deps.publicUrl}/signin`, {
        error: 'invalid_request',
        error_description: accountMessages.invalidExternalLogin,
      });
    }
    const fail = (error: string) =>
      withFragment(request.redirectUri, {
        error,
        error_description: accountMessages.invalidExternalLogin,
        state: request.clientState,
      });
    if (!sameSecret(browserRequestId, request.id)) return fail('invalid_request');
    if (query.has('error'))
      return fail(query.get('error') === 'access_denied' ? 'access_denied' : 'server_error');
    let identity: ExternalIdentity;
    try {
      identity = await providers.finish(provider, query, {
        state: request.id,
        nonce: request.nonce,
        codeVerifier: request.codeVerifier,
      });
    } catch (error) {
      this.deps.log.warn({ err: error, provider: provider.name }, 'external sign-in failed');
      return fail('server_error');
    }
    const token = await this.#tokenFor(identity);
    return withFragment(request.redirectUri, { ...token, state: request.clientState });
  }

  /** A known login signs its user in; an unknown identity gets a token for registerExternal. */
  async #tokenFor(
    identity: ExternalIdentity,
  ): Promise<Pick<TokenResponse, 'access_token' | 'token_type' | 'expires_in'>> {
    const { db, clock, tokens, accounts } = this.deps;
    const login = await findExternalLogin(db, identity.provider, identity.subject);
    const user = login && (await findUserById(db, login.userId));
    if (user) {
      const token = await accounts.issueToken(user, identity.provider, accounts.lifetime(false));
      return {
        access_token: token.access_token,
        token_type: 'bearer',
        expires_in: token.expires_in,
      };
    }
    const now = clock.now();
    const pendingId = randomUUID();
    await insertPendingExternalLogin(
      db,
      {
        id: pendingId,
        provider: identity.provider,
        providerKey: identity.subject,
        email: identity.email,
        emailVerified: identity.emailVerified,
        firstName: identity.firstName,
        lastName: identity.lastName,
        expiresAt: new Date(now.getTime() + pendingLifetimeSeconds * 1000),
      },
      now,
    );
    const issued = await tokens.issueExternal(pendingId, pendingLifetimeSeconds);
    return { access_token: issued.token, token_type: 'bearer', expires_in: pendingLifetimeSeconds };
  }

  /**
   * POST registerExternal: creates the account of a new external identity and signs it in. The
   * address counts as confirmed when the provider vouched for that same address.
   */
  async registerExternal(
    signIn: ExternalSignIn,
    body: RegisterExternalRequest,
    language: AccountLanguage,
  ): Promise<TokenResponse> {
    const vouched =
      signIn.emailVerified &&
      signIn.email !== null &&
      normalizeEmail(signIn.email) === normalizeEmail(body.userName);
    const user = await this.deps.accounts.createAccount({
      email: body.userName,
      firstName: body.firstName,
      lastName: body.lastName,
      language,
      emailConfirmed: vouched,
      emailField: 'userName',
      addLogin: async (trx, userId, now) => {
        if (!(await deletePendingExternalLogin(trx, signIn.pendingLoginId))) {
          throw new HttpError(400, accountMessages.invalidExternalLogin);
        }
        const login = { provider: signIn.provider, providerKey: signIn.providerKey, userId };
        if ((await insertExternalLogin(trx, login, now)) === 'duplicate') {
          throw new HttpError(400, accountMessages.externalLoginTaken);
        }
      },
    });
    const { accounts } = this.deps;
    return accounts.issueToken(user, signIn.provider, accounts.lifetime(false));
  }

  /** POST addExternalLogin: links the identity an external sign-in just brought back. */
  async addExternalLogin(user: SignedInUser, externalAccessToken: string): Promise<void> {
    const { db, clock, tokens } = this.deps;
    const verified = await tokens.verify(externalAccessToken);
    // An access token here means the provider's login already belongs to an account.
    if (verified?.kind === 'access') throw new HttpError(400, accountMessages.externalLoginTaken);
    const pending =
      verified && (await findPendingExternalLogin(db, verified.pendingLoginId, clock.now()));
    if (!pending) throw new HttpError(400, accountMessages.invalidExternalLogin);
    await db.transaction().execute(async (trx) => {
      if (!(await deletePendingExternalLogin(trx, pending.id))) {
        throw new HttpError(400, accountMessages.invalidExternalLogin);
      }
      const login = {
        provider: pending.provider,
        providerKey: pending.providerKey,
        userId: user.id,
      };
      if ((await insertExternalLogin(trx, login, clock.now())) === 'duplicate') {
        throw new HttpError(400, accountMessages.externalLoginTaken);
      }
    });
  }

  /** POST removeLogin, with SPEC §5's two refusals. */
  async removeLogin(user: SignedInUser, body: RemoveLoginRequest): Promise<void> {
    const { db, providers } = this.deps;
    const logins = await listExternalLogins(db, user.id);
    const login = logins.find(
      (candidate) =>
        candidate.provider === body.loginProvider.toLowerCase() &&
        candidate.providerKey === body.providerKey,
    );
    if (!login) throw new HttpError(400, accountMessages.loginNotFound);
    const name = providers.displayName(login.provider);
    const hasPassword = (await findPasswordHash(db, user.id)) !== undefined;
    if (logins.length === 1 && !hasPassword) throw new HttpError(400, onlyLoginMessage(name));
    if (user.loginProvider === login.provider) throw new HttpError(400, currentLoginMessage(name));
    await deleteExternalLogin(db, login);
  }

  /** POST cancelExternalLogin: forgets an external identity that will not be registered. */
  async cancel(credential: Credential): Promise<void> {
    if (credential.kind === 'external') {
      await deletePendingExternalLogin(this.deps.db, credential.signIn.pendingLoginId);
    }
  }

  /** An address on this site (a path, or a full URL of PUBLIC_URL's origin); never elsewhere. */
  #sameSiteUrl(value: string): string {
    const base = new URL(`${this.deps.publicUrl}/`);
    const url = URL.canParse(value, base.href) ? new URL(value, base) : undefined;
    if (!url || url.origin !== base.origin)
      throw new HttpError(400, accountMessages.invalidRedirect);
    url.hash = '';
    return url.href;
  }
}

function withFragment(url: string, parameters: Record<string, string | number | null>): string {
  const fragment = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) {
    if (value !== null) fragment.set(key, String(value));
  }
  return `${url}#${fragment.toString()}`;
}

function sameSecret(presented: string | undefined, expected: string): boolean {
  const a = Buffer.from(presented ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
