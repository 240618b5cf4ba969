import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Decides whether the crawler may connect to an address (the hosted service refuses private
 * networks). It sees the resolved address at connect time, so a name that re-resolves to a
 * private address between checks (DNS rebinding) is still refused, and IP literals too.
 */
export type AddressPolicy = (address: string, hostname: string) => boolean;

export const blockedAddressCode = 'EADDRBLOCKED';

function blockedError(hostname: string, address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `The address ${address} of ${hostname} is on a private network and may not be scanned`,
  );
  error.code = blockedAddressCode;
  return error;
}

/** Throws for a URL whose host is an IP literal the policy refuses (no lookup happens for those). */
export function assertLiteralAllowed(url: string, policy: AddressPolicy | undefined): void {
  if (!policy) return;
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) && !policy(hostname, hostname)) throw blockedError(hostname, hostname);
}

/** A lookup that resolves as `base` does and keeps only the addresses the policy allows. */
export function guardLookup(
  policy: AddressPolicy | undefined,
  base?: LookupFunction,
): LookupFunction | undefined {
  if (!policy) return base;
  const resolve = base ?? systemLookup;
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const all = Array.isArray(addresses) ? addresses : [];
      const allowed = all.filter((entry) => policy(entry.address, hostname));
      const first = allowed[0];
      if (!first) return callback(blockedError(hostname, all[0]?.address ?? hostname), '', 0);
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}
