import * as oidc from 'openid-client';
import type { ExternalProviderConfig } from '../../config.js';

/** What a provider told us about the person who signed in there. */
export interface ExternalIdentity {
  provider: string;
  /** The provider's stable id of the person (`sub`). */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

/** The secrets of one authorization request, kept server-side until the provider answers. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The configured OpenID Connect providers (openid-client): authorization code flow with PKCE
 * (S256), state and nonce. Discovery happens on first use and is kept, so a provider that is
 * down never stops the server from starting.
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
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl(provider.name),
      scope: provider.scopes,
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Exchanges the code of the provider's redirect (`query` is its query string) and reads the
   * person's identity from the ID token, or from the userinfo endpoint for what it lacks.
   */
  async finish(
    provider: ExternalProviderConfig,
    query: URLSearchParams,
    checks: AuthorizationChecks,
  ): Promise<ExternalIdentity> {
    const configuration = await this.#configuration(provider);
    const currentUrl = new URL(this.callbackUrl(provider.name));
    currentUrl.search = query.toString();
    const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error(`${provider.name} answered without an ID token`);
    let claims: Record<string, unknown> = idClaims;
    if (typeof idClaims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
      const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      claims = { ...userInfo, ...idClaims };
    }
    return toIdentity(provider.name, idClaims.sub, claims);
  }

  #configuration(provider: ExternalProviderConfig): Promise<oidc.Configuration> {
    let configuration = this.#configurations.get(provider.name);
    if (!configuration) {
      configuration = discover(provider);
      // A failed discovery is tried again on the next sign-in rather than remembered.
      configuration.catch(() => this.#configurations.delete(provider.name));
      this.#configurations.set(provider.name, configuration);
    }
    return configuration;
  }
}

async function discover(provider: ExternalProviderConfig): Promise<oidc.Configuration> {
  const issuer = new URL(provider.issuer);
  // Config validation allows http:// only on loopback (a provider on the same machine).
  const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
  const discovered = await oidc.discovery(
    issuer,
    provider.clientId,
    provider.clientSecret,
    oidc.ClientSecretBasic(provider.clientSecret),
    { execute },
  );
  // client_secret_basic is the OpenID default; use post only where the provider asks for it.
  const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
  if (
    !methods ||
    methods.includes('client_secret_basic') ||
    !methods.includes('client_secret_post')
  ) {
    return discovered;
  }
  const configuration = new oidc.Configuration(
    discovered.serverMetadata(),
    provider.clientId,
    provider.clientSecret,
    oidc.ClientSecretPost(provider.clientSecret),
  );
  for (const step of execute) step(configuration);
  return configuration;
}

function toIdentity(
  provider: string,
  subject: string,
  claims: Record<string, unknown>,
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
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    firstName: text('given_name') ?? first ?? null,
    lastName: text('family_name') ?? (rest.length > 0 ? rest.join(' ') : null),
  };
}
