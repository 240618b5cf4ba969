import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy as EngineAddressPolicy } from '@linkaudit/engine';
import ipaddr from 'ipaddr.js';
import { isSpecialUseName } from '@linkaudit/core';

/**
 * The SSRF guard of DESIGN §4: the hosted server never scans loopback, private, link-local,
 * unique-local, metadata or other non-public addresses unless the operator allows private targets
 * or the host is allow-listed. The engine applies it at connect time (scanAddressPolicy below).
 */
export interface AddressPolicy {
  allowPrivate: boolean;
  /**
   * Lower-case host names (or IP literals) that may be scanned whatever they resolve to; an entry
   * with a port (`host:8080`, `[::1]:8080`) allows that port only.
   */
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

/** An allow-list entry read as host and optional port (`a.test`, `a.test:8080`, `[::1]:80`, `::1`). */
export function allowListEntry(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed)
    return bracketed[2]
      ? { host: bracketed[1] ?? '', port: bracketed[2] }
      : { host: bracketed[1] ?? '' };
  const named = /^([^:]+):(\d+)$/.exec(entry);
  if (named) return { host: named[1] ?? '', port: named[2] ?? '' };
  return { host: entry };
}

function bareHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/**
 * Whether the policy lets this host be scanned on this port whatever it resolves to: an entry
 * naming a port allows that port only, an entry without one every port.
 */
export function isHostAllowed(host: string, policy: AddressPolicy, port: string): boolean {
  if (policy.allowPrivate) return true;
  const name = bareHost(host);
  return policy.allowedHosts.some((item) => {
    const entry = allowListEntry(item);
    if (bareHost(entry.host) !== name) return false;
    return entry.port === undefined || entry.port === port;
  });
}

/**
 * The engine's address policy for a scan: the engine applies it, with the port, to every
 * resolved address of every connection and to every IP literal before each request and
 * redirect hop, so neither DNS rebinding, nor a link written as `http://10.0.0.1/`, nor a link
 * or redirect to another port of an allow-listed `host:port` reaches a private network.
 */
export function scanAddressPolicy(policy: AddressPolicy): EngineAddressPolicy {
  return (address, hostname, port) =>
    isHostAllowed(hostname, policy, String(port)) || isPublicAddress(address);
}

/** Why a start address is refused before it is queued. */
export type StartAddressRefusal =
  { kind: 'private'; address: string } | { kind: 'unknown-host'; host: string };

/** Resolver errors that mean the name does not exist (not a resolver that is down or slow). */
const unknownNameCodes = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME']);

function lookupAll(lookup: LookupFunction, host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(Array.isArray(addresses) ? addresses : []);
    });
  });
}

/**
 * Checks a scan's start address before it is queued: a special-use name (`*.localhost`,
 * `metadata.google.internal` …), its IP literal, or every address its name
 * resolves to now (the connect-time check catches a later change). A name that does not exist is
 * refused too; a resolver that fails for a while (EAI_AGAIN, timeouts) leaves it to the engine.
 */
export async function refusedStartAddress(
  url: string,
  policy: AddressPolicy,
  lookup: LookupFunction = systemLookup,
): Promise<StartAddressRefusal | undefined> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  if (isHostAllowed(host, policy, port)) return undefined;
  // By name, before any lookup: a resolver that times out must not let these through.
  if (isSpecialUseName(host)) return { kind: 'private', address: host };
  if (ipaddr.isValid(host)) {
    return isPublicAddress(host) ? undefined : { kind: 'private', address: host };
  }
  try {
    const addresses = await lookupAll(lookup, host);
    if (addresses.length === 0) return { kind: 'unknown-host', host };
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    return refused ? { kind: 'private', address: refused.address } : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return unknownNameCodes.has(code) ? { kind: 'unknown-host', host } : undefined;
  }
}
