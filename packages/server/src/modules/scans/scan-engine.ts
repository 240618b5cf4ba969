import {
  isolatedEngineOptions,
  type Backpressure,
  runIsolatedScan,
  runScan,
  type CrawlSettings,
  type DoneEvent,
  type EngineOptions,
  type ScanEvent,
  type ScanResume,
} from '@linkaudit/engine';
import { scanAddressPolicy, type AddressPolicy } from './address-guard.js';

/** How scans run beside the API (SCAN_ISOLATION, SCAN_MEMORY_LIMIT_MB). */
export interface ScanIsolation {
  mode: 'process' | 'none';
  memoryLimitMb: number;
}

/** One scan to run, as the worker has it. */
export interface EngineRun {
  policy: AddressPolicy;
  signal: AbortSignal;
  onEvent: (event: ScanEvent) => void;
  /** The results writer: while it is full, the scan holds back (in either mode). */
  backpressure?: Backpressure | undefined;
  /** Tests shorten retries and timeouts, and resolve names without DNS (createLookup). */
  engineOptions?: Partial<EngineOptions> | undefined;
  /** What an interrupted run of this scan already checked (crash recovery). */
  resume?: ScanResume | undefined;
}

/** Runs a scan to its `done` (never rejects for scan problems), wherever the configuration says. */
export type ScanEngine = (settings: CrawlSettings, run: EngineRun) => Promise<DoneEvent>;

export function scanEngine(isolation: ScanIsolation): ScanEngine {
  return isolation.mode === 'process' ? inOwnProcess(isolation.memoryLimitMb) : inThisProcess;
}

const inThisProcess: ScanEngine = (
  settings,
  { policy, signal, onEvent, backpressure, engineOptions, resume },
) =>
  runScan(settings, {
    ...engineOptions,
    ...(resume ? { resume } : {}),
    // Each page as read is stored, so a scan resumed after a crash does not read it again.
    checkpointPages: true,
    // Every report shows a suggested fix beside a problem link (issue 27).
    suggestions: true,
    signal,
    addressPolicy: scanAddressPolicy(policy),
    onEvent,
    backpressure,
  });

/** The address guard, which the scan's process loads to make the same policy from the same data. */
const addressGuardModule = new URL('./address-guard.js', import.meta.url).href;

function inOwnProcess(memoryLimitMb: number): ScanEngine {
  return (settings, { policy, signal, onEvent, backpressure, engineOptions = {}, resume }) =>
    runIsolatedScan(settings, {
      ...isolatedEngineOptions(engineOptions),
      ...(resume ? { resume } : {}),
      checkpointPages: true,
      suggestions: true,
      memoryLimitMb,
      signal,
      addressPolicy: { module: addressGuardModule, name: scanAddressPolicy.name, argument: policy },
      onEvent,
      backpressure,
    });
}
