// The public front door of @linkaudit/engine: settings in, a stream of typed events out.
export { runScan, scan, type RunScanOptions } from './scan.js';
export type * from './events.js';
export { engineDefaults, type EngineOptions } from './options.js';
export { ruleCatalogue } from './rules/index.js';
export { blockedAddressCode, type AddressPolicy } from './fetch/address-policy.js';
