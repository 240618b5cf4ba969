import type { LookupFunction } from 'node:net';
import { hostsLookup, type HostsLookup } from '../fetch/hosts-lookup.js';

/** A LookupFunction that also tells which names were asked for. */
export type TestLookup = HostsLookup & { asked: string[] };

/**
 * Name resolution for EngineOptions.lookup without DNS: each of `names` (and `localhost`) resolves
 * to 127.0.0.1, every other name fails with ENOTFOUND as a real resolver would. Lets tests give
 * sites "external" host names and www/bare pairs. It carries its hosts map, so a scan in a child
 * process (runIsolatedScan) resolves the same way; `asked` then lists only this process's lookups.
 */
export function createLookup(names: Iterable<string>, address = '127.0.0.1'): TestLookup {
  const hosts = Object.fromEntries([...names, 'localhost'].map((name) => [name, address]));
  const resolve = hostsLookup({ hosts, otherNames: 'not-found' });
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    resolve(hostname, options, callback);
  };
  return Object.assign(lookup, { asked, hostsMap: resolve.hostsMap });
}
