import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { HttpResponse } from './http-client.js';

/**
 * A folder of files standing for a site (issue 38: `linkaudit scan ./public`): every address
 * under `rootUrl` is answered from `folder` as a static host answers (GitHub Pages, nginx), in
 * process, without a socket. So the crawl, the checks and the reports keep the site's own
 * addresses (never 127.0.0.1), and absolute links to the site are checked as files.
 */
export interface FileSiteOptions {
  /** The live address the folder is, ending in "/" (its path is the folder's root). */
  rootUrl: string;
  /** The folder, absolute. */
  folder: string;
}

/** Content types by extension: the ones static hosts send for what built sites hold. */
const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
};

export function contentTypeOfFile(path: string): string {
  return contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export class FileSite {
  private readonly root: URL;

  constructor(private readonly options: FileSiteOptions) {
    this.root = new URL(options.rootUrl);
  }

  /** Whether the address is the folder's (its answer comes from the disk). */
  serves(url: URL): boolean {
    return url.origin === this.root.origin && url.pathname.startsWith(this.root.pathname);
  }

  /** The file an address of the site names (not checked to exist), or undefined when none can. */
  pathOf(url: URL): string | undefined {
    if (!this.serves(url)) return undefined;
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname.slice(this.root.pathname.length));
    } catch {
      return undefined;
    }
    // (URL parsing already removed dot segments; an encoded "/.." or a NUL must not escape.)
    if (relative.includes('\0') || relative.split('/').includes('..')) return undefined;
    return join(this.options.folder, ...relative.split('/'));
  }

  /** The answer to a request for an address of the site, or undefined for other addresses. */
  async answer(address: string, method: 'GET' | 'HEAD'): Promise<HttpResponse | undefined> {
    const url = new URL(address);
    if (!this.serves(url)) return undefined;
    const path = this.pathOf(url);
    if (path === undefined) return response(address, method, 400);
    const found = await stat(path).catch(() => undefined);
    if (found?.isDirectory()) {
      if (!url.pathname.endsWith('/')) {
        const location = `${url.pathname}/${url.search}`;
        return response(address, method, 301, { location });
      }
      return this.file(address, method, join(path, 'index.html'));
    }
    if (!found?.isFile() || path.endsWith(sep)) return response(address, method, 404);
    return this.file(address, method, path);
  }

  private async file(address: string, method: 'GET' | 'HEAD', path: string) {
    const found = await stat(path).catch(() => undefined);
    if (!found?.isFile()) return response(address, method, 404);
    const headers = {
      'content-type': contentTypeOfFile(path),
      'content-length': String(found.size),
    };
    const body = method === 'GET' ? createReadStream(path) : Readable.from([]);
    return { url: address, method, statusCode: 200, headers, body };
  }
}

function response(
  url: string,
  method: 'GET' | 'HEAD',
  statusCode: number,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    url,
    method,
    statusCode,
    headers: { 'content-length': '0', ...headers },
    body: Readable.from([]),
  };
}
