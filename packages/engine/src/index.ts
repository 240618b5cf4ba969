// The public front door of @linkaudit/engine: settings in, a stream of typed events out. The rule
// catalogue is @linkaudit/engine/rules: its modules are loaded only by who uses rules.
export { runScan, scan, type RunScanOptions } from './scan.js';
export { RoomListeners, type Backpressure } from './backpressure.js';
export { crawlSettingsFor, type CrawlSettings } from './crawl-settings.js';
export type * from './events.js';
export {
  engineDefaults,
  type EngineOptions,
  type LocalFolder,
  type ScanResume,
} from './options.js';
export { blockedAddressCode, type AddressPolicy } from './fetch/address-policy.js';
export {
  runIsolatedScan,
  isolationDefaults,
  unacknowledgedEventsLimit,
  type RunIsolatedScanOptions,
} from './isolation/isolated-scan.js';
export {
  isolatedEngineOptions,
  type IsolatedEngineOptions,
  type FunctionFactory,
} from './isolation/isolated-options.js';
export { hostsLookup, type HostsMap, type HostsLookup } from './fetch/hosts-lookup.js';
export { scanFailureMessages } from '@linkaudit/core';
export { renderingUnavailable } from './render/chromium.js';
export type { CachedResult, ResultCache } from './crawl/result-cache.js';
