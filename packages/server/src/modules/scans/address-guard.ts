import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of DESIGN §4: the hosted server never scans loopback, private, link-local,
 * unique-local, metadata or other non-public addresses unless the operator allows private targets
 * or the host is allow-listed. It is applied to the *resolved* address at connect time (the
 * engine's lookup), so a name that re-resolves to 127.0.0.1 (DNS rebinding) still fails.
 */
export interface AddressPolicy {
  allowPrivate: boolean;
  /** Lower-case host names (or IP literals) that may be scanned whatever they resolve to. */
  allowedHosts: readonly string[];
}

/** The error code the engine reports for a refused address (fetch/errors.ts has its message). */
export const blockedAddressCode = 'EADDRBLOCKED';

/** True when the address is a public unicast address a hosted scanner may connect to. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  // Everything but 'unicast' is refused: private, loopback, linkLocal (169.254.169.254, the
  // cloud metadata address), uniqueLocal (fd00:ec2::254), carrierGradeNat, reserved, multicast…
  return parsed.range() === 'unicast';
}

export function isHostAllowed(host: string, policy: AddressPolicy): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return policy.allowPrivate || policy.allowedHosts.includes(name);
}

function blockedError(hostname: string, address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `The address ${address} of ${hostname} is on a private network and may not be scanned`,
  );
  error.code = blockedAddressCode;
  return error;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A LookupFunction for EngineOptions.lookup that refuses non-public results (see above). */
export function guardedLookup(
  policy: AddressPolicy,
  resolve: LookupFunction = dnsLookup,
): LookupFunction {
  const lookup = (
    hostname: string,
    optionsOrCallback: LookupOptions | number | LookupCallback,
    maybeCallback?: LookupCallback,
  ): void => {
    const callback = (typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback)!;
    const options: LookupOptions = typeof optionsOrCallback === 'object' ? optionsOrCallback : {};
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!isHostAllowed(hostname, policy)) {
        const refused = list.find((entry) => !isPublicAddress(entry.address));
        if (refused)
          return callback(blockedError(hostname, refused.address), options.all ? [] : '', 0);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(blockedError(hostname, 'none'), '', 0);
      callback(null, first.address, first.family);
    });
  };
  return lookup;
}

/**
 * Checks a scan's start address before it is queued: its IP literal, or every address its name
 * resolves to now (the connect-time check catches a later change). Answers the refused address.
 */
export async function refusedStartAddress(
  url: string,
  policy: AddressPolicy,
): Promise<string | undefined> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isHostAllowed(host, policy)) return undefined;
  if (ipaddr.isValid(host)) return isPublicAddress(host) ? undefined : host;
  try {
    const addresses = await dns.lookup(host, { all: true });
    return addresses.find((entry) => !isPublicAddress(entry.address))?.address;
  } catch {
    // A name that does not resolve is the engine's to report (Invalid Remote Name).
    return undefined;
  }
}

/**
 * Exclusions for links to non-public IP literals: the operating system connects to a literal
 * without a lookup, so the guard above never sees them; the engine skips them (`excluded`).
 * Allow-listed literals stay scannable.
 */
export function privateLiteralExclusions(policy: AddressPolicy): string[] {
  if (policy.allowPrivate) return [];
  const allowed = policy.allowedHosts
    .filter((host) => ipaddr.isValid(host.replace(/^\[|\]$/g, '')))
    .map((host) => `${host.replace(/[.[\]]/g, (char) => `\\${char}`)}(?:[:/]|$)`);
  const except = allowed.length > 0 ? `(?!${allowed.join('|')})` : '';
  const ranges = String.raw`(?:127\.|10\.|0\.|169\.254\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|\[(?:::1|f[cd]|fe[89ab]|::ffff:))`;
  return [`regex:^https?://${except}${ranges}`];
}
