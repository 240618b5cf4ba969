import { promises as dns } from 'node:dns';
import type { AddressPolicy as EngineAddressPolicy } from '@linkaudit/engine';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of DESIGN §4: the hosted server never scans loopback, private, link-local,
 * unique-local, metadata or other non-public addresses unless the operator allows private targets
 * or the host is allow-listed. The engine applies it at connect time (scanAddressPolicy below).
 */
export interface AddressPolicy {
  allowPrivate: boolean;
  /** Lower-case host names (or IP literals) that may be scanned whatever they resolve to. */
  allowedHosts: readonly string[];
}

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

/**
 * The engine's address policy for a scan: the engine applies it to every resolved address at
 * connect time and to every IP literal before each request and redirect hop, so neither DNS
 * rebinding nor a link written as `http://10.0.0.1/` reaches a private network.
 */
export function scanAddressPolicy(policy: AddressPolicy): EngineAddressPolicy {
  return (address, hostname) => isHostAllowed(hostname, policy) || isPublicAddress(address);
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
