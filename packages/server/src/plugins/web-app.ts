import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Paths the server answers itself; everything else is a client-side route of the web app. */
const serverPathPrefixes = ['/api/', '/token', '/reports/', '/healthcheck', '/hubs/', '/PowerBi/'];

function isServerPath(url: string): boolean {
  const lower = url.toLowerCase();
  return serverPathPrefixes.some((prefix) => lower.startsWith(prefix.toLowerCase()));
}

/**
 * Serves the built single-page app: hashed assets cached for a year, every other GET that is
 * not an API path answered with index.html so client routes (and the redirect of unknown
 * paths to /) work on reload.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`web app not built (${indexFile} missing); run "npm run build"`);
    app.setNotFoundHandler((request, reply) =>
      isServerPath(request.url) || request.method !== 'GET'
        ? reply.status(404).send({ message: 'Not found.' })
        : reply
            .status(503)
            .type('text/plain')
            .send('The web app is not built yet. Run "npm run build", then reload.'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: webDistDir,
    wildcard: false,
    index: false,
    setHeaders: (response, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      response.header(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || isServerPath(request.url)) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
