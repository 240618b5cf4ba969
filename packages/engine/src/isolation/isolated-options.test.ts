// The data that stands for EngineOptions' functions across a process boundary, and the functions
// made again from it.
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { hostsLookup } from '../fetch/hosts-lookup.js';
import { createLookup } from '../test-support/index.js';
import { engineOptionsFrom, isolatedEngineOptions } from './isolated-options.js';

function resolveAll(lookup: LookupFunction, name: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup(name, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses as LookupAddress[]),
    ),
  );
}

describe('isolated engine options', () => {
  it('describes a hosts lookup by its map, and makes the same lookup from it', async () => {
    const options = isolatedEngineOptions({ retries: 1, lookup: createLookup(['site.test']) });
    expect(options).toEqual({
      retries: 1,
      lookup: {
        hosts: { 'site.test': '127.0.0.1', localhost: '127.0.0.1' },
        otherNames: 'not-found',
      },
    });
    const { lookup } = await engineOptionsFrom(structuredClone(options));
    expect(await resolveAll(lookup!, 'Site.Test.')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveAll(lookup!, 'other.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('lets other names resolve through the system when the map says so', async () => {
    const lookup = hostsLookup({ hosts: { 'a.test': '::1' }, otherNames: 'resolve' });
    expect(await resolveAll(lookup, 'a.test')).toEqual([{ address: '::1', family: 6 }]);
    const system = await resolveAll(systemLookup, 'localhost');
    expect(await resolveAll(lookup, 'localhost')).toEqual(system);
  });

  it('refuses functions it cannot describe rather than dropping them', () => {
    const plain: LookupFunction = (_name, _options, callback) => callback(null, '127.0.0.1', 4);
    expect(() => isolatedEngineOptions({ lookup: plain })).toThrow(/hostsLookup/);
    expect(() => isolatedEngineOptions({ addressPolicy: () => true })).toThrow(/FunctionFactory/);
  });
});
