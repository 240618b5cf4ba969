import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isSpecialUseName, scanMessages } from '@linkaudit/core';

/**
 * Decides whether the crawler may connect to an address on a port (the hosted service refuses
 * private networks unless a host, or one port of it, is allow-listed). It sees the resolved
 * address at connect time, so a name that re-resolves to a private address between checks (DNS
 * rebinding) is still refused, and IP literals too.
 */
export type AddressPolicy = (address: string, hostname: string, port: number) => boolean;

export const blockedAddressCode = 'EADDRBLOCKED';

/** The error of a refused connection; its message is the link's finding (scanMessages.privateLink). */
function blockedError(hostname: string, port: number, address: string): NodeJS.ErrnoException {
  const host = isIP(hostname) === 6 ? `[${hostname}]` : hostname;
  const error: NodeJS.ErrnoException = new Error(
    scanMessages.privateLink(`${host}:${port}`, address),
  );
  error.code = blockedAddressCode;
  return error;
}

/** The port a URL connects to: its own, or its scheme's. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Throws for a URL whose host is an IP literal the policy refuses (no lookup happens for those). */
export function assertLiteralAllowed(url: string, policy: AddressPolicy | undefined): void {
  if (!policy) return;
  const parsed = new URL(url);
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = portOf(parsed);
  if (isIP(hostname) && !policy(hostname, hostname, port)) {
    throw blockedError(hostname, port, hostname);
  }
}

/**
 * What a special-use name (`localhost`, `*.local`, `metadata.google.internal` …) is taken to
 * resolve to: an address no policy allows but for an allowed host, so such a name is refused
 * before any lookup, unless the host is allow-listed or private targets are allowed.
 */
const specialUseStandIn = '0.0.0.0';

/**
 * A lookup for connections to `port` that resolves as `base` does and keeps only the addresses
 * the policy allows. Node calls it for each new connection, so every connection is checked
 * against the answer it will really use.
 */
export function guardLookup(
  policy: AddressPolicy | undefined,
  port: number,
  base?: LookupFunction,
): LookupFunction | undefined {
  if (!policy) return base;
  const resolve = base ?? systemLookup;
  return (hostname, options, callback) => {
    if (isSpecialUseName(hostname) && !policy(specialUseStandIn, hostname, port)) {
      return callback(blockedError(hostname, port, hostname), '', 0);
    }
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const all = Array.isArray(addresses) ? addresses : [];
      const allowed = all.filter((entry) => policy(entry.address, hostname, port));
      const first = allowed[0];
      if (!first) {
        return callback(blockedError(hostname, port, all[0]?.address ?? hostname), '', 0);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}
