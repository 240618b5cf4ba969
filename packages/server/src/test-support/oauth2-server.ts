import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small plain OAuth 2 authorization server on 127.0.0.1, shaped like the code-hosting sites
 * that speak no OpenID Connect: authorization code grant with PKCE (RFC 7636), a token answer
 * without an ID token, and a user API that names the person by a numeric `id`. oidc-provider
 * always answers an ID token to an `openid` request, so the no-ID-token case needs this.
 */
export interface TestOAuth2Server {
  origin: string;
  clientId: string;
  clientSecret: string;
  /** What the user API answers for the next sign-in; null: the person declines. */
  signInAs: Record<string, unknown> | null;
  /** The query of every authorization request, oldest first. */
  readonly authorizationRequests: URLSearchParams[];
  /** The form of every token request, oldest first. */
  readonly tokenRequests: URLSearchParams[];
  /** The variables that configure this server as `name` by its endpoints. */
  environment(name: string, displayName: string): Record<string, string>;
  stop(): Promise<void>;
}

interface IssuedCode {
  person: Record<string, unknown>;
  redirectUri: string;
  codeChallenge: string | null;
}

const paths = {
  authorize: '/login/oauth/authorize',
  token: '/login/oauth/access_token',
  user: '/api/user',
};

/** `redirectUris` are the only callback addresses it sends codes to, as a real provider does. */
export async function startTestOAuth2Server(redirectUris: string[]): Promise<TestOAuth2Server> {
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, Record<string, unknown>>();
  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stand: TestOAuth2Server = {
    origin,
    clientId: 'linkaudit-oauth2-test',
    clientSecret: 'an-oauth2-client-secret-for-tests-only',
    signInAs: null,
    authorizationRequests: [],
    tokenRequests: [],
    environment: (name, displayName) => {
      const prefix = `OIDC_${name.toUpperCase()}_`;
      return {
        [`${prefix}AUTHORIZATION_ENDPOINT`]: origin + paths.authorize,
        [`${prefix}TOKEN_ENDPOINT`]: origin + paths.token,
        [`${prefix}USERINFO_ENDPOINT`]: origin + paths.user,
        [`${prefix}CLIENT_ID`]: stand.clientId,
        [`${prefix}CLIENT_SECRET`]: stand.clientSecret,
        [`${prefix}DISPLAY_NAME`]: displayName,
        [`${prefix}SCOPES`]: 'read:user user:email',
      };
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && url.pathname === paths.authorize) return authorize(url, res);
    if (req.method === 'POST' && url.pathname === paths.token) return token(req, res);
    if (req.method === 'GET' && url.pathname === paths.user) return user(req, res);
    res.writeHead(404).end();
  }

  /** The sign-in page, answered at once: a code for `signInAs`, or access_denied. */
  function authorize(url: URL, res: ServerResponse): void {
    const query = url.searchParams;
    stand.authorizationRequests.push(query);
    const redirectUri = query.get('redirect_uri') ?? '';
    // An unknown client or return address gets an error page, never a redirect (RFC 6749 §4.1.2.1).
    if (query.get('client_id') !== stand.clientId || !redirectUris.includes(redirectUri)) {
      res.writeHead(400).end('unknown client or redirect_uri');
      return;
    }
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const challengeMethod = query.get('code_challenge_method') ?? 'plain';
    if (query.get('response_type') !== 'code' || challengeMethod !== 'S256') {
      back.searchParams.set('error', 'invalid_request');
    } else if (!stand.signInAs) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(16).toString('hex');
      const codeChallenge = query.get('code_challenge');
      codes.set(code, { person: stand.signInAs, redirectUri, codeChallenge });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.href }).end();
  }

  /** The token endpoint: client authentication, a single-use code, PKCE, and no ID token. */
  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    stand.tokenRequests.push(form);
    if (!authenticatesClient(req, form)) return json(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') !== 'authorization_code') {
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    codes.delete(code);
    if (
      !issued ||
      form.get('redirect_uri') !== issued.redirectUri ||
      !pkceHolds(issued.codeChallenge, form.get('code_verifier'))
    ) {
      return json(res, 400, { error: 'invalid_grant' });
    }
    const accessToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, issued.person);
    json(res, 200, { access_token: accessToken, token_type: 'bearer', scope: 'read:user' });
  }

  /** The user API: who the bearer of an access token is. */
  function user(req: IncomingMessage, res: ServerResponse): void {
    const [scheme, value] = (req.headers.authorization ?? '').split(' ');
    const person = scheme?.toLowerCase() === 'bearer' ? accessTokens.get(value ?? '') : undefined;
    if (!person) return json(res, 401, { message: 'Requires authentication' });
    json(res, 200, person);
  }

  /** HTTP Basic (form-encoded id and secret, RFC 6749 §2.3.1) or the two form fields. */
  function authenticatesClient(req: IncomingMessage, form: URLSearchParams): boolean {
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() === 'basic') {
      const [id = '', secret = ''] = Buffer.from(encoded ?? '', 'base64')
        .toString()
        .split(':')
        .map((part) => decodeURIComponent(part.replaceAll('+', ' ')));
      return id === stand.clientId && secret === stand.clientSecret;
    }
    return (
      form.get('client_id') === stand.clientId && form.get('client_secret') === stand.clientSecret
    );
  }

  return stand;
}

/** S256 only: the verifier's SHA-256, base64url, is the challenge of the authorization request. */
function pkceHolds(challenge: string | null, verifier: string | null): boolean {
  if (challenge === null || verifier === null) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify(body));
}
