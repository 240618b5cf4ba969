import {
  defaultScanRequest,
  endingStatus,
  type FailureReason,
  type ScanRequestInput,
  type ScanStatus,
} from '@linkaudit/core';
import { crawlSettingsFor, runScan } from '../index.js';
import type {
  DoneEvent,
  EngineOptions,
  LinkEvent,
  PageEvent,
  ProgressEvent,
  ScanEvent,
  SkipCause,
  UnverifiedCause,
} from '../index.js';

/** Engine options that keep scenario tests fast: one quick retry, short waits. */
export const fastEngineOptions = {
  retries: 1,
  retryBaseDelayMs: 10,
  maxRetryAfterMs: 3_000,
  requestTimeoutMs: 5_000,
  progressIntervalMs: 50,
} as const satisfies EngineOptions;

export interface CollectedScan {
  /** Every event in the order it arrived. */
  events: ScanEvent[];
  pages: PageEvent[];
  links: LinkEvent[];
  progress: ProgressEvent[];
  /** The done event, with the status code its ending maps to (as the server and CLI map it). */
  done: DoneEvent & { status: ScanStatus };
}

/** Runs a scan to its end (fast test options unless overridden) and sorts its events by type. */
export async function collectScan(
  settings: ScanRequestInput,
  options: EngineOptions = {},
): Promise<CollectedScan> {
  const events: ScanEvent[] = [];
  const done = await runScan(crawlSettingsFor(defaultScanRequest(settings)), {
    ...fastEngineOptions,
    ...options,
    onEvent: (event) => events.push(event),
  });
  // The events end with the same done, status added, so tests may compare either.
  const finished = { ...done, status: endingStatus(done) };
  events[events.lastIndexOf(done)] = finished;
  return {
    events,
    pages: events.filter((event): event is PageEvent => event.type === 'page'),
    links: events.filter((event): event is LinkEvent => event.type === 'link'),
    progress: events.filter((event): event is ProgressEvent => event.type === 'progress'),
    done: finished,
  };
}

export interface BrokenUrl {
  url: string;
  reason: FailureReason;
  statusCode: number | undefined;
  /** Link events pointing at this URL. */
  referenceCount: number;
}

/** One entry per unique broken URL (and reason), sorted: what a report's broken-links table shows. */
export function brokenSummary(links: readonly LinkEvent[]): BrokenUrl[] {
  const byUrl = new Map<string, BrokenUrl>();
  for (const link of links) {
    if (link.check.state !== 'broken') continue;
    const key = `${link.url}\n${link.check.reason}`;
    const entry = byUrl.get(key);
    if (entry) entry.referenceCount += 1;
    else {
      byUrl.set(key, {
        url: link.url,
        reason: link.check.reason,
        statusCode: link.check.statusCode,
        referenceCount: 1,
      });
    }
  }
  return [...byUrl.values()].sort(byUrlThen((entry) => entry.reason));
}

/** The outcome of one unique URL in a form that compares completely with toEqual. */
export interface UrlOutcome {
  url: string;
  state: LinkEvent['check']['state'];
  /** Failure reason (broken), skip cause (skipped), its cause (unverified), status code (ok). */
  detail: FailureReason | SkipCause | UnverifiedCause | number;
  referenceCount: number;
}

/** One entry per unique URL and outcome, sorted; the same URL with two outcomes shows twice. */
export function urlOutcomes(links: readonly LinkEvent[]): UrlOutcome[] {
  const byKey = new Map<string, UrlOutcome>();
  for (const link of links) {
    const detail = detailOf(link.check);
    const key = `${link.url}\n${link.check.state}\n${detail}`;
    const entry = byKey.get(key);
    if (entry) entry.referenceCount += 1;
    else byKey.set(key, { url: link.url, state: link.check.state, detail, referenceCount: 1 });
  }
  return [...byKey.values()].sort(byUrlThen((entry) => `${entry.state}${entry.detail}`));
}

function detailOf(check: LinkEvent['check']): UrlOutcome['detail'] {
  switch (check.state) {
    case 'ok':
      return check.statusCode;
    case 'broken':
      return check.reason;
    case 'unverified':
      return check.cause;
    case 'skipped':
      return check.cause;
  }
}

function byUrlThen<T extends { url: string }>(secondary: (entry: T) => string) {
  return (a: T, b: T): number =>
    a.url < b.url ? -1 : a.url > b.url ? 1 : secondary(a).localeCompare(secondary(b));
}

/** 1-based line and column of the first occurrence of `needle` in `source` (for expected positions). */
export function positionOf(source: string, needle: string): { line: number; column: number } {
  const index = source.indexOf(needle);
  if (index < 0) throw new Error(`not in the source: ${needle}`);
  const before = source.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

/** The events of one type, typed: `eventsOfType(events, 'page-size')`. */
export function eventsOfType<T extends ScanEvent['type']>(
  events: readonly ScanEvent[],
  type: T,
): Array<Extract<ScanEvent, { type: T }>> {
  return events.filter((event): event is Extract<ScanEvent, { type: T }> => event.type === type);
}
