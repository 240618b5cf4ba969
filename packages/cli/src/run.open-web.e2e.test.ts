import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// Open-web verdicts through the CLI (issue 35): a site reached by a made-up name through
// --resolve (no /etc/hosts, no DNS), linking to a page behind bot protection (999), one needing a
// sign-in (401), a deep link sent to the home page and a login wall. Unverified links are counted
// apart and fail the run only with --fail-on-unverified; the warnings never fail it.
const home = [
  '<!doctype html><html><head><title>Home</title></head><body>',
  '<a href="/profile">Profile</a>',
  '<a href="/members">Members</a>',
  '<a href="/blog/2019/gone">Old post</a>',
  '<a href="/settings">Settings</a>',
  '</body></html>',
].join('\n');

const answers: Record<string, [number, Record<string, string>]> = {
  '/profile': [999, {}],
  '/members': [401, { 'www-authenticate': 'Basic realm="members"' }],
  '/blog/2019/gone': [301, { location: '/' }],
  '/settings': [302, { location: '/signin?next=%2Fsettings' }],
};

let server: Server;
let port: number;
const hostsAsked: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hostsAsked.push(request.headers.host ?? '');
    const [status, headers] = answers[request.url ?? '/'] ?? [200, {}];
    response.writeHead(status, { 'content-type': 'text/html', ...headers });
    response.end(request.url === '/' ? home : '<title>Page</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function scan(...extra: string[]) {
  const io = fakeIo();
  const code = await main(
    [
      'scan',
      `http://shop.example.test:${port}/`,
      '--resolve',
      `shop.example.test:${port}:127.0.0.1`,
      '--quiet',
      ...extra,
    ],
    io,
  );
  return { code, io };
}

describe('open-web verdicts in the CLI', () => {
  it('reaches a made-up host name through --resolve and reports unverified links apart, with their cause', async () => {
    const { code, io } = await scan('--format', 'json');
    expect(io.stderr.text).toBe('');
    expect(code).toBe(0);
    expect(hostsAsked).toContain(`shop.example.test:${port}`);
    const report = JSON.parse(io.stdout.text) as {
      broken: unknown[];
      summary: { uniqueUnverifiedLinks: number };
      unverified: Array<{ url: string; cause: string }>;
      warnings: Array<{ url: string; warning: string }>;
    };
    expect(report.broken).toEqual([]);
    expect(report.summary.uniqueUnverifiedLinks).toBe(2);
    const url = (path: string) => `http://shop.example.test:${port}${path}`;
    expect(report.unverified.map((item) => [item.url, item.cause])).toEqual([
      [url('/members'), 'needs-sign-in'],
      [url('/profile'), 'bot-protection'],
    ]);
    expect(report.warnings.map((item) => [item.url, item.warning])).toEqual([
      [url('/blog/2019/gone'), 'soft-404'],
      [url('/settings'), 'login-wall'],
    ]);
  });

  it('fails the run on an unverified link only with --fail-on-unverified', async () => {
    const { code, io } = await scan('--format', 'csv', '--fail-on-unverified');
    expect(code).toBe(1);
    const states = io.stdout.text
      .split('\r\n')
      .slice(1, -1)
      .map((row) => row.split(',').slice(0, 2).join(','));
    expect(states.sort()).toEqual([
      'login-wall,',
      'soft-404,',
      'unverified,bot-protection',
      'unverified,needs-sign-in',
    ]);
  });
});
