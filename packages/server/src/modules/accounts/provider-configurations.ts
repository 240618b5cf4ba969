import * as oidc from 'openid-client';
import type {
  EndpointsProviderConfig,
  ExternalProviderConfig,
  IssuerProviderConfig,
} from '../../config.js';

/** openid-client's view of one provider: its endpoints, our client, and how we authenticate. */
export function providerConfiguration(
  provider: ExternalProviderConfig,
): Promise<oidc.Configuration> {
  return provider.kind === 'issuer' ? discover(provider) : Promise.resolve(fromEndpoints(provider));
}

async function discover(provider: IssuerProviderConfig): Promise<oidc.Configuration> {
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

/**
 * A provider given by its endpoints. openid-client needs an issuer; this one is no real issuer's,
 * so anything compared with it would fail rather than pass. Nothing is: an ID token is dropped
 * (`withoutIdToken`) and the callback's `iss` is not passed on (oidc-providers.ts).
 */
function fromEndpoints(provider: EndpointsProviderConfig): oidc.Configuration {
  const configuration = new oidc.Configuration(
    {
      issuer: `urn:linkaudit:no-issuer:${provider.name}`,
      authorization_endpoint: provider.authorizationEndpoint,
      token_endpoint: provider.tokenEndpoint,
      userinfo_endpoint: provider.userinfoEndpoint,
    },
    provider.clientId,
    provider.clientSecret,
    // Every OAuth 2 authorization server must accept HTTP Basic (RFC 6749 §2.3.1).
    oidc.ClientSecretBasic(provider.clientSecret),
  );
  configuration[oidc.customFetch] = withoutIdToken(provider.tokenEndpoint);
  // Config validation allows http:// only on loopback (a provider on the same machine).
  const endpoints = [
    provider.authorizationEndpoint,
    provider.tokenEndpoint,
    provider.userinfoEndpoint,
  ];
  if (endpoints.some((endpoint) => new URL(endpoint).protocol === 'http:')) {
    oidc.allowInsecureRequests(configuration);
  }
  return configuration;
}

/**
 * Removes an ID token from the token endpoint's answer before openid-client reads it: with no
 * issuer and no keys configured there is nothing to check one against, and an unchecked ID token
 * must not be believed. Who signed in comes from the userinfo endpoint instead.
 */
function withoutIdToken(tokenEndpoint: string): oidc.CustomFetch {
  const target = new URL(tokenEndpoint).href;
  return async (url, options) => {
    // Under the DOM's fetch types (the root tsconfig) openid-client's body type needs this.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- see above
    const response = await fetch(url, options as RequestInit);
    if (url !== target || !response.ok || !isJson(response)) return response;
    const answer: unknown = await response.json();
    if (answer !== null && typeof answer === 'object' && 'id_token' in answer) {
      delete answer.id_token;
    }
    return Response.json(answer, { status: response.status, statusText: response.statusText });
  };
}

function isJson(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return type.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
