import { ScanStatus, type FailureReason } from '@linkaudit/core';
import type { DoneEvent, LinkCheck, LinkEvent } from '@linkaudit/engine';

/** Where a link was found. */
export interface LinkSource {
  url: string;
  element: string;
  attribute: string;
  line: number;
  column: number;
}

export type BrokenCheck = Extract<LinkCheck, { state: 'broken' }>;
export type UnverifiedCheck = Extract<LinkCheck, { state: 'unverified' }>;

/** A checked URL that needs attention, with every place that links to it. */
export interface ProblemUrl<Check> {
  url: string;
  check: Check;
  /** Link occurrences pointing at the URL. */
  referenceCount: number;
  sources: LinkSource[];
}
export type BrokenUrl = ProblemUrl<BrokenCheck>;
export type UnverifiedUrl = ProblemUrl<UnverifiedCheck>;

/** What every output format is written from. */
export interface ScanReport {
  done: DoneEvent;
  /** Sorted by URL; their sources by page, line and column. */
  broken: BrokenUrl[];
  unverified: UnverifiedUrl[];
  /** Link occurrences whose target was fine. */
  okLinks: number;
}

/**
 * Collects what the output needs and nothing else: OK links are only counted, so memory grows with
 * the broken and unverified occurrences, not with the size of the site.
 */
export class ReportCollector {
  private readonly broken = new Map<string, BrokenUrl>();
  private readonly unverified = new Map<string, UnverifiedUrl>();
  private okLinks = 0;
  private urlless = 0;

  add(event: LinkEvent): void {
    const { check } = event;
    // A link without a URL (missing attribute, unparseable address) is its own problem: the
    // engine counts each one as a unique broken link, and their reasons may differ.
    const key = event.url === '' ? `\u0000${(this.urlless += 1)}` : event.url;
    if (check.state === 'ok') this.okLinks += 1;
    else if (check.state === 'broken') addOccurrence(this.broken, key, event, check);
    else if (check.state === 'unverified') addOccurrence(this.unverified, key, event, check);
  }

  finish(done: DoneEvent): ScanReport {
    return {
      done,
      broken: sortProblems(this.broken),
      unverified: sortProblems(this.unverified),
      okLinks: this.okLinks,
    };
  }
}

function addOccurrence<Check>(
  problems: Map<string, ProblemUrl<Check>>,
  key: string,
  event: LinkEvent,
  check: Check,
): void {
  // The engine checks each URL once, so the first occurrence's check stands for all of them.
  let problem = problems.get(key);
  if (!problem) {
    problem = { url: event.url, check, referenceCount: 0, sources: [] };
    problems.set(key, problem);
  }
  problem.referenceCount += 1;
  const { source, element, attribute, line, column } = event;
  problem.sources.push({ url: source, element, attribute, line, column });
}

function sortProblems<Check>(problems: Map<string, ProblemUrl<Check>>): ProblemUrl<Check>[] {
  const list = [...problems.values()];
  for (const problem of list) problem.sources.sort(compareSources);
  return list.sort(
    (a, b) => compareText(a.url, b.url) || compareSources(a.sources[0]!, b.sources[0]!),
  );
}

/** Code-unit order: the same on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareSources(a: LinkSource, b: LinkSource): number {
  return (
    compareText(a.url, b.url) ||
    a.line - b.line ||
    a.column - b.column ||
    compareText(a.element, b.element) ||
    compareText(a.attribute, b.attribute)
  );
}

const statusNames = new Map<number, string>(
  Object.entries(ScanStatus).map(([name, code]) => [code, name]),
);

/** The name of a status code as in core's ScanStatus ("Complete", "OverMaxLinks", …). */
export function statusName(status: number): string {
  return statusNames.get(status) ?? `Status ${status}`;
}

/** A failure reason as an identifier: "Not Found" → "not-found". */
export function reasonSlug(reason: FailureReason): string {
  return reason.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** How a URL reads in a report: the engine gives a missing or empty attribute the URL "". */
export function displayUrl(url: string): string {
  return url === '' ? '(no address)' : url;
}

/** "page:line:column (element attribute)", the way editors and terminals link locations. */
export function formatSource(source: LinkSource): string {
  return `${source.url}:${source.line}:${source.column} (${source.element} ${source.attribute})`;
}

/** "404 Not Found" once, whether or not the message already starts with the status code. */
export function describeAnswer(statusCode: number | undefined, message: string): string {
  if (statusCode === undefined || message.startsWith(String(statusCode))) return message;
  return `${statusCode} ${message}`;
}

/** Unique broken URLs per reason, most frequent first (ties by name). */
export function groupByReason(broken: readonly BrokenUrl[]): [FailureReason, BrokenUrl[]][] {
  const groups = new Map<FailureReason, BrokenUrl[]>();
  for (const item of broken) {
    const group = groups.get(item.check.reason);
    if (group) group.push(item);
    else groups.set(item.check.reason, [item]);
  }
  return [...groups].sort(([a, x], [b, y]) => y.length - x.length || compareText(a, b));
}
