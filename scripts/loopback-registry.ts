// An npm registry on 127.0.0.1 for the packed CLI's install test: it offers every package the
// workspace's package-lock.json holds, at the locked versions, and serves their tarballs from
// npm's own cache (where `npm ci` left them), found by their integrity. Tests send no request
// beyond loopback, and npm installs as it would from the public registry: it reads packuments,
// resolves ranges, checks integrity.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
}

type Version = Omit<LockEntry, 'integrity' | 'link'> & {
  name: string;
  version: string;
  dist: { tarball: string; integrity: string };
};

/** npm's content cache file for an integrity (cacache: content-v2/<algorithm>/<hex digest>). */
function cachedFile(cacheDirectory: string, integrity: string): string {
  const [algorithm, digest] = integrity.split(' ')[0]!.split('-', 2) as [string, string];
  const hex = Buffer.from(digest, 'base64').toString('hex');
  return path.join(
    cacheDirectory,
    '_cacache',
    'content-v2',
    algorithm,
    hex.slice(0, 2),
    hex.slice(2, 4),
    hex.slice(4),
  );
}

/** Name → version → the lock's entry, for every installed (not linked) package of the lock. */
function lockedPackages(lockFile: string): Map<string, Map<string, LockEntry>> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages = new Map<string, Map<string, LockEntry>>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    const at = where.lastIndexOf('node_modules/');
    if (at < 0 || entry.link || !entry.version || !entry.integrity) continue;
    const name = where.slice(at + 'node_modules/'.length);
    if (!packages.has(name)) packages.set(name, new Map());
    packages.get(name)!.set(entry.version, entry);
  }
  return packages;
}

export interface LoopbackRegistry {
  url: string;
  /** Tarballs asked for that npm's cache does not hold (the test fails naming them). */
  missing: string[];
  close(): Promise<void>;
}

export async function startLoopbackRegistry(
  lockFile: string,
  cacheDirectory = process.env.npm_config_cache ?? path.join(homedir(), '.npm'),
): Promise<LoopbackRegistry> {
  const packages = lockedPackages(lockFile);
  const missing: string[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '/').slice(1).split('?')[0]!);
    const tarball = /^(.+)\/-\/(.+)\.tgz$/.exec(name);
    if (tarball) {
      const [, packageName, versionPart] = tarball as unknown as [string, string, string];
      const version = versionPart.slice(versionPart.lastIndexOf('@') + 1);
      const entry = packages.get(packageName)?.get(version);
      const file = entry?.integrity ? cachedFile(cacheDirectory, entry.integrity) : undefined;
      if (!file || !existsSync(file)) {
        missing.push(`${packageName}@${version}`);
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(readFileSync(file));
      return;
    }
    const versions = packages.get(name);
    if (!versions) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"Not found"}');
      return;
    }
    const documents: Record<string, Version> = {};
    for (const [version, entry] of versions) {
      const { integrity, link: _link, ...fields } = entry;
      documents[version] = {
        ...fields,
        name,
        version,
        dist: { tarball: `${origin}/${name}/-/${name}@${version}.tgz`, integrity: integrity! },
      };
    }
    // The top-level install's version comes first (the lock lists paths in order).
    const latest = [...versions.keys()][0]!;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ name, 'dist-tags': { latest }, versions: documents }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    missing,
    close: () => {
      server.closeAllConnections(); // (npm keeps its connections alive)
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
