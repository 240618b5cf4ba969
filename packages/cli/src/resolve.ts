import { isIP } from 'node:net';
import { hostsLookup, type HostsLookup } from '@linkaudit/engine';

/**
 * --resolve HOST:PORT:ADDRESS (curl's form) or HOST:ADDRESS: the scan connects to ADDRESS for
 * HOST, without asking DNS and without an /etc/hosts entry, like curl's option. Other names
 * resolve as usual. The port is accepted for curl's form (a number or *); the address serves
 * HOST on every port, since name resolution does not see the port.
 */
export function resolveLookup(
  entries: ReadonlyArray<{ host: string; address: string }>,
): HostsLookup {
  const hosts = Object.fromEntries(entries.map(({ host, address }) => [host, address]));
  return hostsLookup({ hosts, otherNames: 'resolve' });
}

const withPort = /^([^:\s[\]]+):(\d{1,5}|\*):(.+)$/;
const withoutPort = /^([^:\s[\]]+):(.+)$/;
const hostName =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?$/i;

/** One --resolve value as host and address; undefined when it is not of either form. */
export function parseResolve(entry: string): { host: string; address: string } | undefined {
  const match = withPort.exec(entry) ?? withoutPort.exec(entry);
  const host = match?.[1];
  const address = match?.at(-1)?.replace(/^\[(.*)\]$/, '$1');
  if (!host || !address || !hostName.test(host) || isIP(address) === 0) return undefined;
  return { host: host.toLowerCase().replace(/\.$/, ''), address };
}
