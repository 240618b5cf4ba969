import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';

/** A LookupFunction that also tells which names were asked for. */
export type TestLookup = LookupFunction & { asked: string[] };

/**
 * Name resolution for EngineOptions.lookup without DNS: each of `names` (and `localhost`) resolves
 * to 127.0.0.1, every other name fails with ENOTFOUND as a real resolver would. Lets tests give
 * sites "external" host names and www/bare pairs.
 */
export function createLookup(names: Iterable<string>, address = '127.0.0.1'): TestLookup {
  const known = new Set([...names, 'localhost'].map((name) => name.toLowerCase()));
  const asked: string[] = [];
  const lookup = (
    hostname: string,
    optionsOrCallback: LookupOptions | number | LookupCallback,
    maybeCallback?: LookupCallback,
  ): void => {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
    const options = typeof optionsOrCallback === 'object' ? optionsOrCallback : {};
    if (!callback) throw new TypeError('lookup needs a callback');
    asked.push(hostname);
    process.nextTick(() => {
      if (!known.has(hostname.toLowerCase().replace(/\.$/, ''))) {
        callback(notFound(hostname), options.all ? [] : '', 0);
      } else if (options.all) {
        callback(null, [{ address, family: 4 } satisfies LookupAddress]);
      } else {
        callback(null, address, 4);
      }
    });
  };
  return Object.assign(lookup as LookupFunction, { asked });
}

type LookupCallback = Parameters<LookupFunction>[2];

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
