// The hosted service refuses private networks: the address policy sees every resolved address
// at connect time and every IP literal before each request, redirect hops included.
import { FailureReason, ScanStatus, scanMessages } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressPolicy } from '../fetch/address-policy.js';
import {
  collectScan,
  createLookup,
  linksPage,
  redirect,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'rebind.test']);
/** Only the scanned site may be reached, however the others resolve. */
const onlyTheSite: AddressPolicy = (_address, hostname) => hostname === 'site.test';
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite({}, { host: 'site.test' });
  const literal = (path: string) => `http://127.0.0.1:${site.port}${path}`;
  site.routes['/'] = linksPage([
    '/fine.html',
    literal('/literal.html'),
    `http://[::1]:${site.port}/ipv6.html`,
    `http://rebind.test:${site.port}/rebind.html`,
    '/hop',
  ]);
  site.routes['/fine.html'] = 'fine';
  site.routes['/hop'] = redirect(literal('/secret.html'), 302);
});
afterAll(() => site.close());

describe('address policy', () => {
  it('refuses IP literals, names resolving to refused addresses and redirects to them, unrequested', async () => {
    const { links, done } = await collectScan(
      { url: site.url('/') },
      { lookup, addressPolicy: onlyTheSite },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    const outcome = (path: string) => links.find((link) => link.url.endsWith(path))?.check;
    expect(outcome('/fine.html')).toMatchObject({ state: 'ok', statusCode: 200 });
    // Each finding names the host and port refused and the address it is or resolved to.
    for (const [path, target, address] of [
      ['/literal.html', `127.0.0.1:${site.port}`, '127.0.0.1'],
      ['/ipv6.html', `[::1]:${site.port}`, '::1'],
      ['/rebind.html', `rebind.test:${site.port}`, '127.0.0.1'],
      ['/hop', `127.0.0.1:${site.port}`, '127.0.0.1'],
    ] as const) {
      expect(outcome(path), path).toMatchObject({
        state: 'broken',
        reason: FailureReason.InvalidRemoteName,
        errorCode: 'EADDRBLOCKED',
        message: scanMessages.privateLink(target, address),
      });
    }
    expect(site.requestedPaths().sort()).toEqual(['/', '/fine.html', '/hop']);
  });

  it('fails a scan whose start address is refused', async () => {
    const { done } = await collectScan(
      { url: `http://127.0.0.1:${site.port}/` },
      { lookup, addressPolicy: onlyTheSite },
    );
    expect(done.status).toBe(ScanStatus.Failed);
    expect(done.error).toMatch(/private network/);
  });
});
