import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** The person who "signs in" at the stand-in provider, as its claims. */
export interface TestIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1, standing in for the external login
 * providers of SPEC §3 that tests cannot reach. Its login and consent screens are replaced by an
 * automatic one: the next authorization signs in as `signInAs` (or is refused when it is null)
 * and consents to what the client asked.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  signInAs: TestIdentity | null;
  /** The variables that configure this provider as `name` by its issuer (discovery). */
  issuerEnvironment(name: string, displayName: string): Record<string, string>;
  /**
   * The variables that configure it as `name` by the endpoints its discovery document names,
   * without the issuer (call after registerClient: the provider answers from then on).
   */
  endpointsEnvironment(name: string, displayName: string): Promise<Record<string, string>>;
  /** Creates the provider once the server's address (its callback URL) is known. */
  registerClient(redirectUris: string[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end('provider not configured yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const identities = new Map<string, TestIdentity>();

  const stand: TestOidcProvider = {
    issuer,
    clientId: 'linkaudit-test',
    clientSecret: 'a-client-secret-for-tests-only-0123456789',
    signInAs: null,
    issuerEnvironment: (name, displayName) => ({
      ...clientEnvironment(name, displayName),
      [`OIDC_${name.toUpperCase()}_ISSUER`]: issuer,
    }),
    endpointsEnvironment: async (name, displayName) => {
      const response = await fetch(`${issuer}/.well-known/openid-configuration`);
      if (!response.ok) throw new Error(`no discovery document: ${response.status}`);
      const metadata = (await response.json()) as Record<string, string>;
      const prefix = `OIDC_${name.toUpperCase()}_`;
      return {
        ...clientEnvironment(name, displayName),
        [`${prefix}AUTHORIZATION_ENDPOINT`]: metadata.authorization_endpoint ?? '',
        [`${prefix}TOKEN_ENDPOINT`]: metadata.token_endpoint ?? '',
        [`${prefix}USERINFO_ENDPOINT`]: metadata.userinfo_endpoint ?? '',
      };
    },
    registerClient: async (redirectUris) => {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: stand.clientId,
            client_secret: stand.clientSecret,
            redirect_uris: redirectUris,
            response_types: ['code'],
            grant_types: ['authorization_code'],
          },
        ],
        jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig' }] },
        cookies: { keys: ['cookie-key-for-tests-only'] },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['given_name', 'family_name'],
        },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        findAccount: (_ctx, sub) => ({
          accountId: sub,
          claims: () => ({ ...identities.get(sub), sub }),
        }),
        loadExistingGrant: consentToEverything,
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
        },
      });
      const callback = provider.callback();
      handler = (req, res) => {
        if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
        void signInAutomatically(provider, req, res);
      };
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function clientEnvironment(name: string, displayName: string): Record<string, string> {
    const prefix = `OIDC_${name.toUpperCase()}_`;
    return {
      [`${prefix}CLIENT_ID`]: stand.clientId,
      [`${prefix}CLIENT_SECRET`]: stand.clientSecret,
      [`${prefix}DISPLAY_NAME`]: displayName,
    };
  }

  async function signInAutomatically(
    provider: Provider,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    try {
      await provider.interactionDetails(req, res);
      const identity = stand.signInAs;
      if (identity) identities.set(identity.sub, identity);
      const result = identity
        ? { login: { accountId: identity.sub } }
        : { error: 'access_denied', error_description: 'The person declined.' };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }

  return stand;
}

/** The consent screen, answered "yes to all that was asked". */
async function consentToEverything(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const grantId =
    oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(oidc.client?.clientId ?? '');
  if (grantId) return oidc.provider.Grant.find(grantId);
  const grant = new oidc.provider.Grant({
    clientId: oidc.client?.clientId,
    accountId: oidc.session?.accountId,
  });
  const scope = oidc.params?.scope;
  grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid');
  await grant.save();
  return grant;
}
