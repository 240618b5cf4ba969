import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

export interface DnsCacheOptions {
  /** How long an answer is reused. Default 5 minutes. */
  answerTtlMs?: number;
  /** How long a failure (ENOTFOUND, EAI_AGAIN…) is reused. Default 30 s. */
  failureTtlMs?: number;
  now?: () => number;
}

interface Entry {
  /** Infinity while the lookup is under way: everyone asking meanwhile shares it. */
  expires: number;
  addresses: Promise<LookupAddress[]>;
}

/**
 * A lookup that asks `base` once per name and reuses the answer, so the 1,450 links of a page to
 * one unreachable host cost one lookup, not 1,450 (each of which can stall for seconds). Failures
 * are kept only for a short while: a resolver that failed once may answer a minute later.
 * Lookups under way are shared. One cache per scan.
 *
 * It caches names, never decisions: the address policy's guard wraps this lookup, so every
 * connection's address is still checked (see HttpClient).
 */
export function cachingLookup(
  base: LookupFunction = systemLookup,
  options: DnsCacheOptions = {},
): LookupFunction {
  const answerTtlMs = options.answerTtlMs ?? 5 * 60_000;
  const failureTtlMs = options.failureTtlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const start = (hostname: string, family: number): Entry => {
    const entry: Entry = {
      expires: Number.POSITIVE_INFINITY,
      addresses: resolveAll(base, hostname, family),
    };
    entry.addresses.then(
      () => (entry.expires = now() + answerTtlMs),
      () => (entry.expires = now() + failureTtlMs),
    );
    return entry;
  };

  const lookup = (
    hostname: string,
    lookupOptions: { family?: number | string; all?: boolean } | number,
    callback: LookupCallback,
  ): void => {
    const all = typeof lookupOptions === 'object' && lookupOptions.all === true;
    const family = familyOf(
      typeof lookupOptions === 'object' ? lookupOptions.family : lookupOptions,
    );
    const key = `${family}/${hostname.toLowerCase()}`;
    let entry = entries.get(key);
    if (!entry || entry.expires <= now()) entries.set(key, (entry = start(hostname, family)));
    entry.addresses.then(
      (addresses) => {
        const first = addresses[0]!;
        if (all) (callback as AllCallback)(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
  return lookup;
}

type LookupCallback = Parameters<LookupFunction>[2];
type AllCallback = (error: null, addresses: LookupAddress[]) => void;

/** 0 (any), 4 or 6, however it was written. */
function familyOf(family: number | string | undefined): number {
  if (family === 'IPv4' || family === 4) return 4;
  if (family === 'IPv6' || family === 6) return 6;
  return 0;
}

function resolveAll(
  base: LookupFunction,
  hostname: string,
  family: number,
): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    base(hostname, { all: true, ...(family ? { family } : {}) }, (error, found) => {
      if (error) return reject(error);
      const addresses = Array.isArray(found)
        ? found
        : found
          ? [{ address: found, family: isIP(found) }]
          : [];
      if (addresses.length === 0) return reject(notFound(hostname));
      resolve(addresses);
    });
  });
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}
