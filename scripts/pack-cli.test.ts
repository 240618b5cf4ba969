import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackRegistry, type LoopbackRegistry } from './loopback-registry.js';
import { packCli } from './pack-cli.mjs';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

/** A two-page site: the home page links its about page (200) and a missing page (404). */
function startSite(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        '<!doctype html><title>Home</title><a href="/about">About</a>\n<a href="/gone">Gone</a>',
      );
    } else if (request.url === '/about') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>About</title><a href="/">Home</a>');
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the packed CLI (npm pack), installed alone in an empty folder', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'linkaudit-packed-'));
  let registry: LoopbackRegistry;
  let site: Server;

  beforeAll(async () => {
    registry = await startLoopbackRegistry(path.join(root, 'package-lock.json'));
    site = await startSite();
  });
  afterAll(async () => {
    await registry.close();
    site.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('installs from its tarball with npm and scans a site', async () => {
    const tarball = packCli(path.join(work, 'pack'));
    const folder = path.join(work, 'empty');
    await run('mkdir', ['-p', folder]);
    writeFileSync(path.join(folder, 'package.json'), '{"name":"someone-else","private":true}\n');
    // A cache of its own: npm fetches every package from the loopback registry, not from a
    // cache the workspace's install filled.
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--cache', path.join(work, 'cache'), tarball],
      { cwd: folder, env: { ...process.env, npm_config_registry: registry.url } },
    );
    expect(registry.missing).toEqual([]);

    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const scan = await run(path.join(folder, 'node_modules', '.bin', 'linkaudit'), [
      'scan',
      `${origin}/`,
      '--format',
      'json',
      '--quiet',
    ]).catch((error: { code: number; stdout: string }) => error);
    // Exit code 1: the scan found a broken link.
    expect('code' in scan ? scan.code : 0).toBe(1);
    const report = JSON.parse(scan.stdout) as { status: string; broken: Array<{ url: string }> };
    expect(report.status).toBe('Complete');
    expect(report.broken.map((link) => link.url)).toEqual([`${origin}/gone`]);
  }, 180_000);
});
