// A real site's files served on 127.0.0.1 the way nginx serves a folder with its default
// configuration (`root` + `index index.html`, no autoindex), because that is where users host
// documentation like this. What matters for a link checker, and what a naive test server gets
// wrong:
// - `merge_slashes on`: `//library/x.html` is `/library/x.html` (200, not 404): a crawler that
//   builds `//path` addresses sees no error and crawls every page again under new addresses.
// - the path is percent-decoded and its dot segments resolved before the file is looked up; a
//   path climbing above the root is a 400;
// - a directory asked without its trailing slash answers 301 to the same path with one (the query
//   kept); a directory with no index.html answers 403; the query never changes the file;
// - symbolic links are followed (Debian's doc packages link their JavaScript to libjs packages);
//   a dangling one is a 404;
// - Content-Type from the file's extension (nginx's mime.types), no charset added, so pages are
//   decoded from their own <meta charset>.
//
// `SiteFiles` is the only way the server and the reference crawler (truth.mjs) read the site,
// so a fault injected there (a page deleted, a page edited) is seen by both.
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** nginx's mime.types, for the extensions documentation sites use. */
const mimeTypes = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.shtml': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css',
  '.js': 'application/javascript',
  '.json': 'application/json',
  '.xml': 'text/xml',
  '.txt': 'text/plain',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.svgz': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/octet-stream',
};

export function contentTypeOf(file) {
  return mimeTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The files of one site: a folder on disk, seen through an overlay of edits. `overlay` maps a
 * site path (`/user/install.html`, decoded) to new contents, or to null for a deleted file.
 */
export class SiteFiles {
  constructor(root, overlay = new Map()) {
    this.root = path.resolve(root);
    this.overlay = overlay;
  }

  /** 'file', 'directory' or undefined (missing, deleted, or a dangling symbolic link). */
  kind(sitePath) {
    const edited = this.overlay.get(sitePath);
    if (edited !== undefined) return edited === null ? undefined : 'file';
    try {
      const info = statSync(path.join(this.root, sitePath)); // follows symbolic links
      return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  read(sitePath) {
    const edited = this.overlay.get(sitePath);
    if (edited !== undefined) return edited ?? undefined;
    return readFileSync(path.join(this.root, sitePath));
  }

  /** Replaces a file's text (for a fault); `edit` receives the current text. */
  edit(sitePath, edit) {
    const before = this.read(sitePath);
    if (!before) throw new Error(`cannot edit ${sitePath}: no such file`);
    const after = edit(before.toString('utf8'));
    if (after === before.toString('utf8'))
      throw new Error(`the edit of ${sitePath} changed nothing`);
    this.overlay.set(sitePath, Buffer.from(after, 'utf8'));
  }

  delete(sitePath) {
    if (this.kind(sitePath) !== 'file') throw new Error(`cannot delete ${sitePath}: no such file`);
    this.overlay.set(sitePath, null);
  }
}

/** A path as nginx sees it: decoded, slashes merged, dot segments resolved; undefined → 400. */
function normalisedPath(rawPath) {
  let decoded;
  try {
    decoded = Buffer.from(
      rawPath.replace(/%([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const segments = [];
  const parts = decoded.split('/');
  for (const [index, part] of parts.entries()) {
    if (part === '' && index < parts.length - 1) continue; // merged slashes
    if (part === '.') continue;
    if (part === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
      continue;
    }
    segments.push(part);
  }
  // A path ending in `/`, `/.` or `/..` names a directory: keep the trailing slash.
  const last = parts.at(-1);
  const trailing = last === '' || last === '.' || last === '..';
  if (trailing && segments.at(-1) !== '') segments.push('');
  return '/' + segments.join('/');
}

/**
 * nginx's answer to a request target (path with query): { status, location?, file?, contentType? }.
 * `file` is the site path whose contents are the body.
 */
export function answerFor(files, target) {
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = queryAt === -1 ? '' : target.slice(queryAt);
  const sitePath = rawPath.startsWith('/') ? normalisedPath(rawPath) : undefined;
  if (sitePath === undefined) return { status: 400 };
  if (sitePath.endsWith('/')) {
    if (files.kind(sitePath.slice(0, -1) || '/') !== 'directory') return { status: 404 };
    const index = `${sitePath}index.html`;
    if (files.kind(index) === 'file') return fileAnswer(index);
    return { status: 403 };
  }
  const kind = files.kind(sitePath);
  if (kind === 'file') return fileAnswer(sitePath);
  if (kind === 'directory') return { status: 301, location: `${encodePath(sitePath)}/${query}` };
  return { status: 404 };
}

function fileAnswer(sitePath) {
  return { status: 200, file: sitePath, contentType: contentTypeOf(sitePath) };
}

function encodePath(sitePath) {
  return sitePath.split('/').map(encodeURIComponent).join('/');
}

const statusTexts = {
  301: 'Moved Permanently',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
};

/**
 * Serves `files` on 127.0.0.1 (a free port unless given); resolves once listening. `headers` are
 * added to every answer (the bench sends `LinkChecker`, which Debian's linkchecker requires
 * before it makes more than 10 requests a second to a host).
 */
export async function serveSite(files, { port = 0, headers: extraHeaders = {} } = {}) {
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests++;
    const answer = answerFor(files, request.url ?? '/');
    const head = request.method === 'HEAD';
    if (answer.status === 200) {
      const body = files.read(answer.file);
      response.writeHead(200, {
        ...extraHeaders,
        'content-type': answer.contentType,
        'content-length': body.length,
      });
      response.end(head ? undefined : body);
      return;
    }
    // nginx's redirects are absolute, with the port (absolute_redirect, port_in_redirect).
    const headers = { ...extraHeaders, 'content-type': 'text/html' };
    if (answer.location) headers.location = `http://${request.headers.host}${answer.location}`;
    const text = statusTexts[answer.status] ?? 'Error';
    const body = `<html>\r\n<head><title>${answer.status} ${text}</title></head>\r\n<body>\r\n<center><h1>${answer.status} ${text}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    headers['content-length'] = Buffer.byteLength(body);
    response.writeHead(answer.status, headers);
    response.end(head ? undefined : body);
  });
  server.keepAliveTimeout = 75_000; // nginx's keepalive_timeout
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: (sitePath = '/') => `${origin}${sitePath}`,
    requestCount: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
