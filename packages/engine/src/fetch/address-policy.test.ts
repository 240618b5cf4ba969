import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { scanMessages } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { assertLiteralAllowed, guardLookup, type AddressPolicy } from './address-policy.js';

/** Private addresses pass on port 8080 only; 10.x never (a stand-in for the server's guard). */
const policy: AddressPolicy = (address, _hostname, port) =>
  !address.startsWith('10.') && (port === 8080 || !address.startsWith('127.'));

/** A resolver whose answers change from one call to the next, as a rebinding DNS server's do. */
function rebinding(answers: string[]): LookupFunction {
  let call = 0;
  return (_hostname, _options, callback) => {
    const address = answers[call++ % answers.length]!;
    const done = callback as unknown as (error: null, all: LookupAddress[]) => void;
    process.nextTick(() => done(null, [{ address, family: 4 }]));
  };
}

function resolveWith(lookup: LookupFunction, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    lookup(name, {}, (error, address) =>
      error ? reject(error) : resolve(typeof address === 'string' ? address : ''),
    );
  });
}

describe('the address policy at connect time', () => {
  it('checks every lookup, so a name that rebinds to a refused address is refused then', async () => {
    const lookup = guardLookup(policy, 443, rebinding(['93.184.216.34', '10.0.0.1']))!;
    await expect(resolveWith(lookup, 'rebind.test')).resolves.toBe('93.184.216.34');
    await expect(resolveWith(lookup, 'rebind.test')).rejects.toMatchObject({
      code: 'EADDRBLOCKED',
      message: scanMessages.privateLink('rebind.test:443', '10.0.0.1'),
    });
  });

  it('gives the policy the port of the connection', async () => {
    const answers = rebinding(['127.0.0.1']);
    await expect(resolveWith(guardLookup(policy, 8080, answers)!, 'a.test')).resolves.toBe(
      '127.0.0.1',
    );
    await expect(resolveWith(guardLookup(policy, 6379, answers)!, 'a.test')).rejects.toThrow(
      scanMessages.privateLink('a.test:6379', '127.0.0.1'),
    );
  });

  it('checks IP literals with their port, the scheme default included', () => {
    expect(() => assertLiteralAllowed('http://127.0.0.1:8080/', policy)).not.toThrow();
    expect(() => assertLiteralAllowed('http://127.0.0.1/', policy)).toThrow(
      scanMessages.privateLink('127.0.0.1:80', '127.0.0.1'),
    );
  });

  it('refuses special-use names before any lookup, so a resolver that times out changes nothing', async () => {
    const asked: string[] = [];
    const timingOut: LookupFunction = (hostname, _options, callback) => {
      asked.push(hostname);
      const error: NodeJS.ErrnoException = new Error(`queryA ETIMEOUT ${hostname}`);
      error.code = 'ETIMEOUT';
      process.nextTick(() => callback(error, '', 0));
    };
    const publicOnly: AddressPolicy = (address) => address === '93.184.216.34';
    for (const name of ['metadata.google.internal', 'admin.localhost', 'printer.local']) {
      await expect(
        resolveWith(guardLookup(publicOnly, 80, timingOut)!, name),
      ).rejects.toMatchObject({
        code: 'EADDRBLOCKED',
        message: scanMessages.privateLink(`${name}:80`, name),
      });
    }
    expect(asked).toEqual([]);
    // A policy that allows the host (an allow-list, private targets allowed) still resolves it.
    const lookup = guardLookup(() => true, 80, rebinding(['127.0.0.1']))!;
    await expect(resolveWith(lookup, 'app.localhost')).resolves.toBe('127.0.0.1');
  });
});
