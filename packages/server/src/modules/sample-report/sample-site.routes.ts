import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** The demo site's files (packages/server/sample-site), the same from src/ and dist/. */
export const sampleSiteDir = path.resolve(import.meta.dirname, '../../../sample-site');

/** Where the server serves its demo site; the sample scan starts here. */
export const sampleSitePath = '/sample-site/';

/** The photo that makes gallery.html an oversized page (over limits.fattestPageBytes). */
export const oversizedPhoto = { name: 'warehouse-photo.jpg', bytes: 2_621_440 } as const;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** A JPEG-looking body generated once, on first request: 2.5 MB is not worth committing. */
let photo: Buffer | undefined;
function oversizedPhotoBody(): Buffer {
  photo ??= Buffer.alloc(oversizedPhoto.bytes, 0x5a);
  photo.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return photo;
}

/**
 * Serves the demo site of the sample report under /sample-site/: its folder's files (read once,
 * a handful of small pages), a generated oversized photo, a moved page answering 301, and 404 for
 * anything else (never the web app's index.html, so its broken links really are broken).
 */
export function registerSampleSiteRoutes(app: FastifyInstance): void {
  const files = new Map(
    readdirSync(sampleSiteDir).map((name) => [
      name,
      {
        body: readFileSync(path.join(sampleSiteDir, name)),
        type: contentTypes[path.extname(name)] ?? 'application/octet-stream',
      },
    ]),
  );
  const root = sampleSitePath.slice(0, -1);
  app.get(root, (_request, reply) => reply.redirect(sampleSitePath, 301));
  app.get(`${root}/*`, (request, reply) => {
    const name = (request.params as { '*': string })['*'] || 'index.html';
    if (name === 'old-shop') return reply.redirect(`${sampleSitePath}teas.html`, 301);
    if (name === oversizedPhoto.name) return reply.type('image/jpeg').send(oversizedPhotoBody());
    const file = files.get(name);
    if (!file) return reply.status(404).type('text/html; charset=utf-8').send(notFoundPage);
    return reply.header('cache-control', 'no-cache').type(file.type).send(file.body);
  });
}

const notFoundPage =
  '<!doctype html><html lang="en"><head><title>Not found</title></head><body><h1>Not found</h1></body></html>';
