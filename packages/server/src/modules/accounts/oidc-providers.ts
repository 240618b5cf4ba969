import * as oidc from 'openid-client';
import type {
  EndpointsProviderConfig,
  ExternalProviderConfig,
  IssuerProviderConfig,
} from '../../config.js';
import {
  subjectOfUserInfo,
  toIdentity,
  type ExternalIdentity,
  type PersonClaims,
} from './external-identity.js';
import { providerConfiguration } from './provider-configurations.js';

/** The secrets of one authorization request, kept server-side until the provider answers. */
export interface AuthorizationChecks {
  state: string;
  /** Sent and checked only where an ID token comes back (providers configured by issuer). */
  nonce: string;
  codeVerifier: string;
}

/**
 * The configured external login providers (openid-client): authorization code flow with PKCE
 * (S256) and state at every provider. One configured by its issuer is OpenID Connect: discovery
 * on first use (kept, so a provider that is down never stops the server from starting), a nonce,
 * and the person from the ID token. One configured by its endpoints is plain OAuth 2: no nonce,
 * and the person from the userinfo endpoint.
 */
export class OidcProviders {
  readonly #configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    private readonly providers: ExternalProviderConfig[],
    private readonly publicUrl: string,
  ) {}

  list(): ExternalProviderConfig[] {
    return this.providers;
  }

  find(name: string): ExternalProviderConfig | undefined {
    const lower = name.toLowerCase();
    return this.providers.find((provider) => provider.name === lower);
  }

  displayName(name: string): string {
    return this.find(name)?.displayName ?? name;
  }

  /** Where the provider sends the browser back to: register this at the provider. */
  callbackUrl(name: string): string {
    return `${this.publicUrl}/api/account/externalLogin/callback/${name}`;
  }

  static newChecks(): AuthorizationChecks {
    return {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
  }

  async authorizationUrl(
    provider: ExternalProviderConfig,
    checks: AuthorizationChecks,
  ): Promise<URL> {
    const configuration = await this.#configuration(provider);
    const parameters: Record<string, string> = {
      redirect_uri: this.callbackUrl(provider.name),
      scope: provider.scopes,
      response_type: 'code',
      state: checks.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    };
    // A nonce ties an ID token to this request; where none is read there is nothing to tie.
    if (provider.kind === 'issuer') parameters.nonce = checks.nonce;
    return oidc.buildAuthorizationUrl(configuration, parameters);
  }

  /** Exchanges the code of the provider's redirect (`query` is its query string) for the person. */
  async finish(
    provider: ExternalProviderConfig,
    query: URLSearchParams,
    checks: AuthorizationChecks,
  ): Promise<ExternalIdentity> {
    const configuration = await this.#configuration(provider);
    return provider.kind === 'issuer'
      ? this.#finishOpenId(provider, configuration, query, checks)
      : this.#finishOAuth2(provider, configuration, query, checks);
  }

  /** The ID token (nonce checked) says who signed in; userinfo adds an address it lacks. */
  async #finishOpenId(
    provider: IssuerProviderConfig,
    configuration: oidc.Configuration,
    query: URLSearchParams,
    checks: AuthorizationChecks,
  ): Promise<ExternalIdentity> {
    const tokens = await oidc.authorizationCodeGrant(
      configuration,
      this.#returnedTo(provider, query),
      {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      },
    );
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error(`${provider.name} answered without an ID token`);
    let claims: PersonClaims = idClaims;
    if (typeof idClaims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
      const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      claims = { ...userInfo, ...idClaims };
    }
    return toIdentity(provider.name, idClaims.sub, claims);
  }

  /** No ID token is read (provider-configurations.ts): the userinfo endpoint says who it is. */
  async #finishOAuth2(
    provider: EndpointsProviderConfig,
    configuration: oidc.Configuration,
    query: URLSearchParams,
    checks: AuthorizationChecks,
  ): Promise<ExternalIdentity> {
    // RFC 6749's answer only: an `iss` (RFC 9207) cannot be checked without a configured issuer.
    const answer = new URLSearchParams();
    for (const key of ['code', 'state']) {
      const value = query.get(key);
      if (value !== null) answer.set(key, value);
    }
    const tokens = await oidc.authorizationCodeGrant(
      configuration,
      this.#returnedTo(provider, answer),
      { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state },
    );
    const response = await oidc.fetchProtectedResource(
      configuration,
      tokens.access_token,
      new URL(provider.userinfoEndpoint),
      'GET',
      undefined,
      new Headers({ accept: 'application/json' }),
    );
    if (!response.ok) throw new Error(`the userinfo endpoint answered ${response.status}`);
    const claims: unknown = await response.json();
    if (!isRecord(claims)) throw new Error('the userinfo answer is not a JSON object');
    return toIdentity(provider.name, subjectOfUserInfo(claims), claims);
  }

  /** The URL the provider sent the browser back to, as openid-client wants to see it. */
  #returnedTo(provider: ExternalProviderConfig, query: URLSearchParams): URL {
    const url = new URL(this.callbackUrl(provider.name));
    url.search = query.toString();
    return url;
  }

  #configuration(provider: ExternalProviderConfig): Promise<oidc.Configuration> {
    let configuration = this.#configurations.get(provider.name);
    if (!configuration) {
      configuration = providerConfiguration(provider);
      // A failed discovery is tried again on the next sign-in rather than remembered.
      configuration.catch(() => this.#configurations.delete(provider.name));
      this.#configurations.set(provider.name, configuration);
    }
    return configuration;
  }
}

function isRecord(value: unknown): value is PersonClaims {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
