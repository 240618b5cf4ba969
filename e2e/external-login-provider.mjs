// The external login provider of the browser tests (e2e/external-login.spec.ts): the server tests'
// real OpenID provider (oidc-provider, packages/server/src/test-support/oidc-provider.ts) on a
// random 127.0.0.1 port, offered to the server as "VideoSite" by its issuer (discovery).
//
// Who signs in at the provider is chosen by the tests through a control endpoint, also on
// 127.0.0.1: `POST /sign-in-as` with a JSON identity ({ sub, email, email_verified, given_name,
// family_name }) or `null` (the person declines). Its address is written to
// `<dataDir>/oidc-control-url`. The identity is used whenever the provider asks who is there,
// i.e. once per browser context: the provider remembers its own session in a cookie.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

/** The provider's name in OIDC_PROVIDERS and its callback path, and the name on the buttons. */
const name = 'videosite';
const displayName = 'VideoSite';

/**
 * Starts the provider and its control endpoint; answers the server's environment for it and a
 * stop function.
 */
export async function startExternalLoginProvider({ publicUrl, dataDir }) {
  if (!process.features.typescript) {
    throw new Error(
      `Node ${process.version} cannot import TypeScript; run the browser tests with the repository's Node 24 (npx playwright test)`,
    );
  }
  const { startTestOidcProvider } =
    await import('../packages/server/src/test-support/oidc-provider.ts');
  const provider = await startTestOidcProvider();
  // The path of packages/server/src/modules/accounts/external-logins.routes.ts.
  await provider.registerClient([`${publicUrl}/api/account/externalLogin/callback/${name}`]);

  const control = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/sign-in-as') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let identity;
      try {
        identity = JSON.parse(body);
      } catch {
        identity = undefined;
      }
      const valid =
        identity === null ||
        (typeof identity === 'object' && typeof identity?.sub === 'string' && identity.sub !== '');
      if (!valid) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('expected an identity or null');
        return;
      }
      provider.signInAs = identity;
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
  writeFileSync(
    path.join(dataDir, 'oidc-control-url'),
    `http://127.0.0.1:${control.address().port}/sign-in-as`,
  );

  return {
    environment: {
      OIDC_PROVIDERS: name,
      ...provider.issuerEnvironment(name, displayName),
    },
    stop: async () => {
      control.closeAllConnections();
      await Promise.race([
        Promise.all([provider.stop(), new Promise((resolve) => control.close(resolve))]),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
    },
  };
}
