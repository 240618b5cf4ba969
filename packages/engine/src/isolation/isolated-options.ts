import type { AddressPolicy } from '../fetch/address-policy.js';
import { hostsLookup, hostsMapOf, type HostsMap } from '../fetch/hosts-lookup.js';
import type { EngineOptions } from '../options.js';

/**
 * A function given by where it is made, so that another process can make it again: the export
 * `name` of `module` (an absolute file: URL or a package name), called with `argument` (any
 * structured-clonable value). The server describes its address policy this way, so the scan's
 * process applies the very same code to the very same configuration.
 */
export interface FunctionFactory {
  module: string;
  name: string;
  argument?: unknown;
}

/**
 * EngineOptions as they cross to a scan's own process (runIsolatedScan): data only. The two
 * options that are functions in EngineOptions are described instead and rebuilt in the child.
 */
export interface IsolatedEngineOptions extends Omit<
  EngineOptions,
  'signal' | 'lookup' | 'addressPolicy'
> {
  /** Replaces DNS resolution for the names it lists (tests map names to 127.0.0.1). */
  lookup?: HostsMap;
  /** Makes the AddressPolicy (the hosted service refuses private networks). */
  addressPolicy?: FunctionFactory;
}

/**
 * The isolated form of in-process options: plain values as they are, a lookup made by
 * hostsLookup (or the test kit's createLookup) as its hosts map. Throws for a function it cannot
 * describe, rather than letting a scan run without it.
 */
export function isolatedEngineOptions(
  options: Omit<EngineOptions, 'signal'>,
): IsolatedEngineOptions {
  const { lookup, addressPolicy, ...plain } = options;
  if (addressPolicy) {
    throw new TypeError(
      'An address policy function cannot cross to a scan process: give its FunctionFactory.',
    );
  }
  if (!lookup) return plain;
  const hostsMap = hostsMapOf(lookup);
  if (!hostsMap) {
    throw new TypeError(
      'A lookup function cannot cross to a scan process: make it with hostsLookup (a hosts map).',
    );
  }
  return { ...plain, lookup: hostsMap };
}

/** In the scan's process: the engine options again, their functions rebuilt. */
export async function engineOptionsFrom(options: IsolatedEngineOptions): Promise<EngineOptions> {
  const { lookup, addressPolicy, ...plain } = options;
  return {
    ...plain,
    ...(lookup ? { lookup: hostsLookup(lookup) } : {}),
    ...(addressPolicy ? { addressPolicy: await make<AddressPolicy>(addressPolicy) } : {}),
  };
}

async function make<T>(factory: FunctionFactory): Promise<T> {
  const exports = (await import(factory.module)) as Record<string, unknown>;
  const create = exports[factory.name];
  if (typeof create !== 'function') {
    throw new TypeError(`${factory.module} exports no function ${factory.name}`);
  }
  const made = (create as (argument: unknown) => unknown)(factory.argument);
  if (typeof made !== 'function') {
    throw new TypeError(`${factory.name} of ${factory.module} did not return a function`);
  }
  return made as T;
}
