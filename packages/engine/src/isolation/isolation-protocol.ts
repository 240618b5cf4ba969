import type { CrawlSettings } from '../crawl-settings.js';
import type { ScanEvent } from '../events.js';
import type { IsolatedEngineOptions } from './isolated-options.js';

/**
 * What the API's process tells a scan's process: what to scan, then maybe to stop; and an `ack`
 * for each batch of events once it has room for more (it has stored enough of what it holds).
 */
export type ToScanProcess =
  | { type: 'start'; settings: CrawlSettings; options: IsolatedEngineOptions }
  | { type: 'stop' }
  | { type: 'ack' };

/**
 * What a scan's process answers: its events in order, in batches (one message per event would
 * cost more than the events on a page of many links), the last batch ending with `done`; or, when
 * it cannot run the scan at all, why.
 */
export type FromScanProcess =
  { type: 'events'; events: ScanEvent[] } | { type: 'failed'; error: string };

/** A batch is sent when it holds this many events… */
export const eventsPerBatch = 512;
/** …or when its first event has waited this long (progress stays live). */
export const batchWaitMs = 25;
/**
 * Batches sent and not yet acknowledged: the scan's process sends no more (the API's process
 * holds at most this many batches beyond its own bound), and its crawl then waits.
 */
export const batchesInFlight = 2;
/** Events the scan's process holds unsent before its crawl starts no new fetch. */
export const heldEventsLimit = 2 * eventsPerBatch;
