import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cachingLookup } from './dns-cache.js';

/** A resolver that knows `known`, fails the rest with ENOTFOUND, and counts what it was asked. */
function countingResolver(known: string[]) {
  const asked: string[] = [];
  const lookup = ((hostname: string, _options: unknown, callback: AllCallback) => {
    asked.push(hostname);
    setImmediate(() => {
      if (!known.includes(hostname)) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        return callback(error, []);
      }
      callback(null, [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    });
  }) as unknown as LookupFunction;
  return { lookup, asked };
}
type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

function ask(
  lookup: LookupFunction,
  hostname: string,
  options: { all?: boolean; family?: number } = {},
): Promise<{ code?: string; address?: string; family?: number; all?: LookupAddress[] }> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address, family) => {
      if (error) resolve({ code: error.code ?? '' });
      else if (Array.isArray(address)) resolve({ all: address });
      else resolve({ address: address, family: family ?? 0 });
    });
  });
}

describe('per-scan DNS cache', () => {
  it('asks once for a name, however many connections and in whichever form they ask', async () => {
    const resolver = countingResolver(['site.test']);
    const lookup = cachingLookup(resolver.lookup);
    const answers = await Promise.all([
      ask(lookup, 'site.test'),
      ask(lookup, 'site.test', { all: true }),
      ask(lookup, 'SITE.test'),
    ]);
    expect(answers).toEqual([
      { address: '127.0.0.1', family: 4 },
      {
        all: [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      },
      { address: '127.0.0.1', family: 4 },
    ]);
    expect(await ask(lookup, 'site.test')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(resolver.asked).toEqual(['site.test']);
  });

  it('remembers a failure for a short while only, an answer for longer', async () => {
    let now = 0;
    const resolver = countingResolver(['site.test']);
    const lookup = cachingLookup(resolver.lookup, {
      answerTtlMs: 300_000,
      failureTtlMs: 30_000,
      now: () => now,
    });
    const failures = await Promise.all(Array.from({ length: 50 }, () => ask(lookup, 'dead.test')));
    expect(new Set(failures.map((answer) => answer.code))).toEqual(new Set(['ENOTFOUND']));
    await ask(lookup, 'site.test');
    expect(resolver.asked).toEqual(['dead.test', 'site.test']);

    now = 29_000;
    expect(await ask(lookup, 'dead.test')).toEqual({ code: 'ENOTFOUND' });
    expect(resolver.asked).toHaveLength(2);
    now = 31_000;
    expect(await ask(lookup, 'dead.test')).toEqual({ code: 'ENOTFOUND' });
    await ask(lookup, 'site.test');
    expect(resolver.asked).toEqual(['dead.test', 'site.test', 'dead.test']);
    now = 301_000;
    await ask(lookup, 'site.test');
    expect(resolver.asked).toEqual(['dead.test', 'site.test', 'dead.test', 'site.test']);
  });

  it('keeps the address families apart', async () => {
    const resolver = countingResolver(['site.test']);
    const lookup = cachingLookup(resolver.lookup);
    await ask(lookup, 'site.test', { family: 4 });
    await ask(lookup, 'site.test', { family: 6 });
    await ask(lookup, 'site.test', { family: 4 });
    expect(resolver.asked).toEqual(['site.test', 'site.test']);
  });
});
