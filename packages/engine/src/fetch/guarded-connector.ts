import type { LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { guardLookup, type AddressPolicy } from './address-policy.js';

/**
 * undici's connector with the address policy applied to every connection, port included. A
 * lookup function sees only the host name, so each port gets its own connector whose lookup
 * knows it: an allow-list entry `host:8080` then lets a redirect or a link reach port 8080 of
 * that host and no other. (Ports per scan are few; each connector keeps its own TLS sessions.)
 */
export function guardedConnector(
  options: buildConnector.BuildOptions,
  policy: AddressPolicy | undefined,
  lookup: LookupFunction | undefined,
): buildConnector.connector | buildConnector.BuildOptions {
  if (!policy) return lookup ? { ...options, lookup } : options;
  const byPort = new Map<number, buildConnector.connector>();
  return (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    let connect = byPort.get(port);
    if (!connect) {
      connect = buildConnector({ ...options, lookup: guardLookup(policy, port, lookup) });
      byPort.set(port, connect);
    }
    connect(connectOptions, callback);
  };
}
