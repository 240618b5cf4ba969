import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';
import type { TlsIdentity } from './certificates.js';

/** Writes the whole answer itself (streaming, counting, inspecting the request…). */
export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  context: RouteContext,
) => void | Promise<void>;

export interface RouteContext {
  /** 1 for the first request this route answers, 2 for the second, … (every method counts). */
  hit: number;
  /** Aborted when the client goes away or the site closes: stop long writes and waits. */
  signal: AbortSignal;
}

/** An answer described as data; `handler` takes over completely when given. */
export interface RouteResponse {
  /** Default 200. */
  status?: number;
  headers?: OutgoingHttpHeaders;
  /** A string is sent as UTF-8 (text/html unless headers say otherwise). */
  body?: string | Uint8Array;
  /** Waits this long before answering (a slow server). */
  delayMs?: number;
  /** Compresses the body and says so in Content-Encoding, whatever the request accepted. */
  encoding?: 'gzip' | 'deflate' | 'br';
  /** Destroys the connection instead of answering (a connection reset). */
  reset?: boolean;
  handler?: RouteHandler;
}

/** An HTML string (200 text/html) or a described answer. */
export type Route = string | RouteResponse;

/** Path with query (`/a?b=1`, exactly as requested) → answer. Unknown paths answer 404. */
export type SiteRoutes = Record<string, Route>;

export interface TestSiteOptions {
  /** Serves HTTPS (and plain HTTP on the same port, told apart by the first byte). */
  tls?: TlsIdentity;
  /** The host name `url()` and `origin` use by default (give a lookup for names). Default 127.0.0.1. */
  host?: string;
  /** Files served for paths without a route (`/dir/` serves `dir/index.html`). */
  folder?: string;
  /** The answer for paths with no route and no file. Default 404 "Not Found". */
  fallback?: Route;
}

/** One request as the site saw it. */
export interface RecordedRequest {
  method: string;
  /** Path with query, as sent. */
  path: string;
  /** The Host header without the port. */
  host: string;
  protocol: 'http' | 'https';
  headers: IncomingHttpHeaders;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface TestSite {
  port: number;
  /** The routes, read at request time: add one after start when it must name the port. */
  routes: SiteRoutes;
  /** Default scheme and host, e.g. `http://127.0.0.1:43123`. */
  origin: string;
  /** An absolute URL on this site; host and protocol default to the site's. */
  url(path?: string, options?: { host?: string; protocol?: 'http' | 'https' }): string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** The requests for one path (with query, exact), optionally of one method. */
  requestsFor(path: string, method?: string): RecordedRequest[];
  /** The methods used for one path, in order: e.g. ['HEAD', 'GET']. */
  methodsFor(path: string): string[];
  /** Each path requested (robots.txt aside), once, in order of first request. */
  requestedPaths(): string[];
  close(): Promise<void>;
}

const notFound: RouteResponse = {
  status: 404,
  headers: { 'content-type': 'text/plain' },
  body: 'Not Found',
};

/** Starts a real HTTP (or HTTPS) server on 127.0.0.1 with a free port. */
export async function startTestSite(
  routes: SiteRoutes,
  options: TestSiteOptions = {},
): Promise<TestSite> {
  const requests: RecordedRequest[] = [];
  const hits = new Map<string, number>();
  const closing = new AbortController();
  const sockets = new Set<net.Socket>();

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const requestPath = request.url ?? '/';
    requests.push(recordOf(request, requestPath));
    const hit = (hits.get(requestPath) ?? 0) + 1;
    hits.set(requestPath, hit);
    const signal = AbortSignal.any([closing.signal, closedSignal(response)]);
    resolveRoute(routes, options, requestPath)
      .then((route) => answerRoute(route, request, response, { hit, signal }))
      .catch((error: unknown) => {
        if (!response.headersSent && !response.destroyed) {
          response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        } else {
          response.destroy();
        }
      });
  };

  const server = options.tls ? dualProtocolServer(options.tls, handle) : http.createServer(handle);
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as net.AddressInfo).port;
  const defaultProtocol = options.tls ? 'https' : 'http';
  const defaultHost = options.host ?? '127.0.0.1';
  const url: TestSite['url'] = (urlPath = '/', urlOptions = {}) =>
    `${urlOptions.protocol ?? defaultProtocol}://${urlOptions.host ?? defaultHost}:${port}${urlPath}`;

  return {
    port,
    routes,
    origin: url('').replace(/\/$/, ''),
    url,
    requests,
    requestsFor: (requestPath, method) =>
      requests.filter((r) => r.path === requestPath && (!method || r.method === method)),
    methodsFor: (requestPath) =>
      requests.filter((r) => r.path === requestPath).map((r) => r.method),
    requestedPaths: () => [
      ...new Set(requests.map((r) => r.path).filter((p) => p !== '/robots.txt')),
    ],
    close: async () => {
      closing.abort();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function recordOf(request: IncomingMessage, requestPath: string): RecordedRequest {
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  return {
    method: request.method ?? 'GET',
    path: requestPath,
    host: (request.headers.host ?? '').replace(/:\d+$/, ''),
    protocol: encrypted ? 'https' : 'http',
    headers: request.headers,
    at: performance.now(),
  };
}

function closedSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => controller.abort());
  return controller.signal;
}

async function resolveRoute(
  routes: SiteRoutes,
  options: TestSiteOptions,
  requestPath: string,
): Promise<Route> {
  const route = routes[requestPath];
  if (route !== undefined) return route;
  if (options.folder) {
    const file = await folderFile(options.folder, requestPath);
    if (file) return file;
  }
  return options.fallback ?? notFound;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

async function folderFile(folder: string, requestPath: string): Promise<Route | undefined> {
  const pathname = decodeURIComponent(new URL(requestPath, 'http://x').pathname);
  const root = path.resolve(folder);
  let file = path.resolve(root, `.${pathname}`);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) file = path.join(file, 'index.html');
  const body = await readFile(file).catch(() => undefined);
  if (!body) return undefined;
  const type = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  return { headers: { 'content-type': type }, body };
}

/** Answers one request with a route (exported for the combinators in responses.ts). */
export async function answerRoute(
  route: Route,
  request: IncomingMessage,
  response: ServerResponse,
  context: RouteContext,
): Promise<void> {
  const described: RouteResponse = typeof route === 'string' ? { body: route } : route;
  if (described.delayMs) await sleep(described.delayMs, undefined, { signal: context.signal });
  if (described.reset) {
    request.socket.destroy();
    return;
  }
  if (described.handler) {
    await described.handler(request, response, context);
    return;
  }
  const headers: OutgoingHttpHeaders = { ...described.headers };
  let body = typeof described.body === 'string' ? Buffer.from(described.body) : described.body;
  if (typeof described.body === 'string' && !hasHeader(headers, 'content-type')) {
    headers['content-type'] = 'text/html; charset=utf-8';
  }
  if (body && described.encoding) {
    body = encode(body, described.encoding);
    headers['content-encoding'] = described.encoding;
  }
  if (body && !hasHeader(headers, 'content-length')) headers['content-length'] = body.byteLength;
  response.writeHead(described.status ?? 200, headers);
  response.end(body);
}

function hasHeader(headers: OutgoingHttpHeaders, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function encode(body: Uint8Array, encoding: 'gzip' | 'deflate' | 'br'): Buffer {
  if (encoding === 'gzip') return gzipSync(body);
  if (encoding === 'deflate') return deflateSync(body);
  return brotliCompressSync(body);
}

/**
 * HTTPS and plain HTTP on one port, told apart by the first byte (0x16 starts a TLS handshake),
 * so `http://host:port/` and `https://host:port/` are the same origin port as the scope rules
 * need them.
 */
function dualProtocolServer(
  tls: TlsIdentity,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): net.Server {
  const secure = https.createServer({ cert: tls.cert, key: tls.key }, handle);
  const plain = http.createServer(handle);
  return net.createServer((socket) => {
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (!first) {
        socket.destroy();
        return;
      }
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
    });
  });
}

/** A port on 127.0.0.1 that nothing listens on (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
