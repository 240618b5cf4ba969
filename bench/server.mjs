// Static server for a generated site: files from the site folder, the redirect/410 routes
// from its truth.json, 404 for anything else, optional latency on every response. The tail's
// routes misbehave as real servers do: `delayMs` answers late, `trickleMs` sends the body in ten
// pieces spread over that time, `drop` closes the connection in the middle of the headers.
//
// It runs in its own process (started by run.mjs with fork) so that the measured tool's RSS and
// CPU are its own. Small files are loaded into memory at start, before any measurement, so the
// server costs as little CPU per request as possible and no tool pays for a cold cache.
//
// Standalone: node server.mjs <site dir> [--latency ms] [--port n]
import { readFileSync, readdirSync, statSync, createReadStream } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.gz': 'application/gzip',
  '.mp4': 'video/mp4',
};
const CACHE_LIMIT = 1024 * 1024; // files above this (the big files) are streamed from disk
const NOT_FOUND = Buffer.from('Not Found\n'); // plain text: a crawler must not parse it for links
const BAD_REQUEST = Buffer.from('Bad Request\n');

function contentType(file) {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

// Every file of the site keyed by URL path; small ones with their bytes, big ones by size only.
function loadFiles(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'truth.json') files.set(toUrlPath(root, full), fileEntry(full));
    }
  };
  walk(root);
  files.set('/', files.get('/index.html'));
  return files;
}

function toUrlPath(root, full) {
  return '/' + path.relative(root, full).split(path.sep).join('/');
}

function fileEntry(full) {
  const size = statSync(full).size;
  const body = size <= CACHE_LIMIT ? readFileSync(full) : null;
  return { full, size, body, type: contentType(full) };
}

function send(req, res, status, headers, body) {
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || body == null) res.end();
  else if (Buffer.isBuffer(body)) res.end(body);
  else body.pipe(res); // a big file's stream
}

// Answers one request; the query string is ignored, as static hosts do.
function answer(site, req, res) {
  const urlPath = decodePath(req.url ?? '/');
  if (urlPath === null) return send(req, res, 400, textHeaders(BAD_REQUEST), BAD_REQUEST);
  const route = site.routes[urlPath];
  if (route?.location) {
    const location = route.absolute
      ? `http://${req.headers.host}${route.location}`
      : route.location;
    return send(req, res, route.status, { location, 'content-length': 0 }, null);
  }
  if (route?.drop) return dropMidAnswer(req);
  if (route?.delayMs)
    return void setTimeout(() => sendFile(site, req, res, urlPath), route.delayMs);
  if (route?.trickleMs) return trickle(site, req, res, urlPath, route.trickleMs);
  if (route) return send(req, res, route.status, textHeaders(NOT_FOUND), NOT_FOUND);
  return sendFile(site, req, res, urlPath);
}

function sendFile(site, req, res, urlPath) {
  const file = site.files.get(urlPath);
  if (!file) return send(req, res, 404, textHeaders(NOT_FOUND), NOT_FOUND);
  const headers = { 'content-type': file.type, 'content-length': file.size };
  const body = file.body ?? (req.method === 'HEAD' ? null : createReadStream(file.full));
  return send(req, res, 200, headers, body);
}

// Half a status line and header, then the connection is gone: no answer a client could use.
function dropMidAnswer(req) {
  req.socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/ht');
  req.socket.destroySoon();
}

// The headers at once, the body in ten pieces `totalMs / 10` apart (a slow backend streaming).
function trickle(site, req, res, urlPath, totalMs) {
  const file = site.files.get(urlPath);
  if (!file?.body) return send(req, res, 404, textHeaders(NOT_FOUND), NOT_FOUND);
  res.writeHead(200, { 'content-type': file.type, 'content-length': file.size });
  if (req.method === 'HEAD') return res.end();
  const pieces = 10;
  const size = Math.ceil(file.body.length / pieces);
  let piece = 0;
  const next = () => {
    if (res.destroyed) return;
    const chunk = file.body.subarray(piece * size, (piece + 1) * size);
    piece++;
    if (piece < pieces) {
      res.write(chunk);
      setTimeout(next, totalMs / pieces);
    } else res.end(chunk);
  };
  setTimeout(next, totalMs / pieces);
}

function decodePath(url) {
  try {
    return decodeURIComponent(url.split('?')[0].split('#')[0]);
  } catch {
    return null; // malformed percent-encoding
  }
}

function textHeaders(body) {
  return { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length };
}

function handler(site, latencyMs) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(req, res, 405, { allow: 'GET, HEAD', 'content-length': 0 }, null);
    }
    if (latencyMs > 0) setTimeout(() => answer(site, req, res), latencyMs);
    else answer(site, req, res);
  };
}

// Starts the server on 127.0.0.1; resolves with { server, port, files }.
export async function startSiteServer(
  siteDir,
  { latencyMs = 0, port = 0, keepAliveMs = 30_000 } = {},
) {
  const truth = JSON.parse(readFileSync(path.join(siteDir, 'truth.json'), 'utf8'));
  const site = { files: loadFiles(siteDir), routes: truth.routes };
  const server = http.createServer({ keepAlive: true }, handler(site, latencyMs));
  // Idle keep-alive connections are closed after this, as real servers do (nginx 75 s, Apache 5 s).
  server.keepAliveTimeout = keepAliveMs;
  server.maxRequestsPerSocket = 0;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { server, port: server.address().port, files: site.files.size };
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      latency: { type: 'string', default: '0' },
      port: { type: 'string', default: '0' },
      'keep-alive': { type: 'string', default: '30000' },
    },
  });
  if (positionals.length !== 1)
    throw new Error('usage: node server.mjs <site dir> [--latency ms] [--port n]');
  const { server, port, files } = await startSiteServer(positionals[0], {
    latencyMs: Number(values.latency),
    port: Number(values.port),
    keepAliveMs: Number(values['keep-alive']),
  });
  const ready = { port, files, pid: process.pid };
  if (process.send)
    process.send(ready); // started by run.mjs through fork()
  else console.log(`serving ${files} files on http://127.0.0.1:${port}/`);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop); // the runner died: don't outlive it
}

if (import.meta.main) await main();
