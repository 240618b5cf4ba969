import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Name resolution given as data, like an /etc/hosts file: the listed names answer their address,
 * the others resolve as usual or fail with ENOTFOUND. Unlike a lookup function it can cross a
 * process boundary (runIsolatedScan takes it), so tests can give sites "external" host names.
 */
export interface HostsMap {
  /** Lower-case host name → the address it answers (IPv4 or IPv6). */
  hosts: Record<string, string>;
  /** What the names not listed do: resolve through the system, or not exist. */
  otherNames: 'resolve' | 'not-found';
}

/** A lookup function made from a hosts map, which still carries the map it was made from. */
export type HostsLookup = LookupFunction & { readonly hostsMap: HostsMap };

type LookupCallback = Parameters<LookupFunction>[2];

/** The lookup a hosts map describes; `hostsMapOf` reads the map back from it. */
export function hostsLookup(map: HostsMap): HostsLookup {
  const hosts = new Map(
    Object.entries(map.hosts).map(([name, address]) => [normalName(name), address]),
  );
  const lookup = (
    hostname: string,
    optionsOrCallback: LookupOptions | number | LookupCallback,
    maybeCallback?: LookupCallback,
  ): void => {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
    const options = typeof optionsOrCallback === 'object' ? optionsOrCallback : {};
    if (!callback) throw new TypeError('lookup needs a callback');
    const address = hosts.get(normalName(hostname));
    if (address === undefined && map.otherNames === 'resolve') {
      systemLookup(hostname, options, callback);
      return;
    }
    process.nextTick(() => {
      if (address === undefined) {
        callback(notFound(hostname), options.all ? [] : '', 0);
      } else if (options.all) {
        callback(null, [{ address, family: isIP(address) } satisfies LookupAddress]);
      } else {
        callback(null, address, isIP(address));
      }
    });
  };
  return Object.assign(lookup as LookupFunction, { hostsMap: map });
}

/** The hosts map a lookup was made from, if it was made by hostsLookup. */
export function hostsMapOf(lookup: LookupFunction): HostsMap | undefined {
  return (lookup as Partial<HostsLookup>).hostsMap;
}

function normalName(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/** The error a real resolver gives for a name that does not exist. */
function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException & { hostname?: string } = new Error(
    `getaddrinfo ENOTFOUND ${hostname}`,
  );
  error.code = 'ENOTFOUND';
  error.errno = -3008;
  error.syscall = 'getaddrinfo';
  error.hostname = hostname;
  return error;
}
