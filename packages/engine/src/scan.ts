import type { ScanSettingsInput } from '@linkaudit/core';
import type { DoneEvent, ScanEvent } from './events.js';
import type { EngineOptions } from './options.js';

export interface RunScanOptions extends EngineOptions {
  /** Receives every event as it happens; it must not block (queue slow work elsewhere). */
  onEvent: (event: ScanEvent) => void;
}

/** Runs a scan to its end and resolves with its `done` event. */
export function runScan(_settings: ScanSettingsInput, _options: RunScanOptions): Promise<DoneEvent> {
  return Promise.reject(new Error('not implemented yet'));
}

/** The same scan as an async iterable of events, ending with `done`. */
export async function* scan(
  settings: ScanSettingsInput,
  options: EngineOptions = {},
): AsyncIterable<ScanEvent> {
  const events: ScanEvent[] = [];
  await runScan(settings, { ...options, onEvent: (event) => events.push(event) });
  yield* events;
}
