// Address-policy factories for runIsolatedScan's tests: given as a FunctionFactory (this module's
// URL, an export's name and its argument), the policy is made in the scan's own process.
import { writeFileSync } from 'node:fs';
import type { AddressPolicy } from '../fetch/address-policy.js';

/** Refuses the listed host names, whatever they resolve to. */
export function refusingHosts(names: string[]): AddressPolicy {
  return (_address, hostname) => !names.includes(hostname);
}

/** A policy whose first use exits the process with `code`, as a crash in native code would. */
export function exitingPolicy(code: number): AddressPolicy {
  return () => process.exit(code);
}

/**
 * A policy whose first use writes `marker` (a file path) and never returns: the process's event
 * loop is stuck for good, and the test knows when.
 */
export function spinningPolicy(marker: string): AddressPolicy {
  return () => {
    writeFileSync(marker, 'spinning');
    for (;;) {
      // busy, as a scan lost in a pathological page would be
    }
  };
}
