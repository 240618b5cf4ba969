// The public front door of @linkaudit/engine: settings in, a stream of typed events out. The rule
// catalogue is @linkaudit/engine/rules: its modules are loaded only by who uses rules.
export { runScan, scan, type RunScanOptions } from './scan.js';
export type * from './events.js';
export { engineDefaults, type EngineOptions } from './options.js';
export { blockedAddressCode, type AddressPolicy } from './fetch/address-policy.js';
