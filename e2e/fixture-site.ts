import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

/** A site a browser test scans, served on 127.0.0.1 by the test itself. */
export interface FixtureSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `pages` (path → HTML), `redirects` (path → location, 301) and, with `sitemap`, the
 * /sitemap.xml it writes for the site's origin; every other path is a 404 page.
 */
export async function serveFixtureSite(
  pages: Record<string, string>,
  options: { redirects?: Record<string, string>; sitemap?: (origin: string) => string } = {},
): Promise<FixtureSite> {
  let origin = '';
  const server = createServer((request, response) => {
    const at = (request.url ?? '/').split('?')[0] ?? '/';
    const location = options.redirects?.[at];
    if (at === '/sitemap.xml' && options.sitemap) {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(options.sitemap(origin));
    } else if (location) response.writeHead(301, { location }).end();
    else if (pages[at]) response.writeHead(200, { 'content-type': 'text/html' }).end(pages[at]);
    else response.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const shots = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'linkaudit-screens');

/** A full-page screenshot for the eyes (SCREENSHOT_DIR, else the system's temporary folder). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** A screenshot of one part of a page (SCREENSHOT_DIR, else the system's temporary folder). */
export async function screenshotOf(part: Locator, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await part.screenshot({ path: path.join(shots, `${name}.png`) });
}
