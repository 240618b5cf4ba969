import { styleText } from 'node:util';
import { ScanStatus } from '@linkaudit/core';
import type { RedirectHop, StopCause } from '@linkaudit/engine';
import {
  describeAnswer,
  displayUrl,
  formatSource,
  groupByReason,
  type LinkSource,
  type ProblemUrl,
  type ScanReport,
} from '../report.js';
import type { Formatter } from './format.js';

type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

const statusLabels: Partial<Record<number, string>> = {
  [ScanStatus.Complete]: 'Complete',
  [ScanStatus.Cancelled]: 'Cancelled',
  [ScanStatus.Failed]: 'Failed',
  [ScanStatus.Timeout]: 'Timed out',
  [ScanStatus.OverMaxLinks]: 'Link limit reached',
};

const stopLabels: Record<StopCause, string> = {
  'link-limit': 'the link limit was reached',
  'error-limit': 'the error limit was reached',
  timeout: 'the time limit was reached',
  cancelled: 'the scan was cancelled',
  error: 'an error',
};

/** A summary a person can act on, then what is broken, grouped by why. */
export const formatText: Formatter = (report, options) => {
  const paint: Paint = options.color
    ? (style, text) => styleText(style, text, { validateStream: false })
    : (_style, text) => text;
  const lines = [
    ...summaryLines(report, paint),
    ...brokenLines(report, paint),
    ...unverifiedLines(report, paint),
  ];
  return `${lines.join('\n')}\n`;
};

function summaryLines(report: ScanReport, paint: Paint): string[] {
  const { done } = report;
  const { summary } = done;
  const label = statusLabels[done.status] ?? `Status ${done.status}`;
  const statusStyle =
    done.status === ScanStatus.Failed
      ? 'red'
      : done.status === ScanStatus.Complete
        ? 'green'
        : 'yellow';
  const lines = [
    paint('bold', `LinkAudit scan of ${summary.startUrl}`),
    `  Status      ${paint(statusStyle, label)}`,
  ];
  if (done.stoppedBy && done.stoppedBy !== 'error') {
    lines.push(`  Stopped     ${stopLabels[done.stoppedBy]}`);
  }
  if (done.error) lines.push(`  Error       ${paint('red', done.error)}`);
  const broken = `${count(summary.brokenLinks, 'link')} to ${count(summary.uniqueBrokenLinks, 'URL')}`;
  lines.push(
    `  Pages       ${summary.pages}`,
    `  Links       ${summary.totalLinks} found, ${count(summary.uniqueLinks, 'unique URL')} checked`,
    `  Broken      ${summary.brokenLinks > 0 ? paint('red', broken) : 'none'}`,
  );
  if (summary.uniqueUnverifiedLinks > 0) {
    lines.push(`  Unverified  ${count(summary.uniqueUnverifiedLinks, 'URL')}`);
  }
  lines.push(`  Duration    ${formatDuration(summary.durationMs)}`);
  return lines;
}

function brokenLines(report: ScanReport, paint: Paint): string[] {
  if (report.broken.length === 0) {
    return report.done.status === ScanStatus.Failed ? [] : ['', paint('green', 'No broken links.')];
  }
  const lines: string[] = [];
  for (const [reason, items] of groupByReason(report.broken)) {
    lines.push('', paint(['bold', 'red'], `${reason} (${items.length})`));
    for (const item of items) lines.push(...problemLines(item, item.check.redirects, paint));
  }
  return lines;
}

function unverifiedLines(report: ScanReport, paint: Paint): string[] {
  if (report.unverified.length === 0) return [];
  const lines = [
    '',
    paint(['bold', 'yellow'], `Could not be verified (${report.unverified.length})`),
    paint(
      'dim',
      '  These servers refuse automated requests (bot protection); check them in a browser.',
    ),
  ];
  for (const item of report.unverified) lines.push(...problemLines(item, [], paint));
  return lines;
}

function problemLines(
  item: ProblemUrl<{ statusCode?: number; message: string }>,
  redirects: readonly RedirectHop[],
  paint: Paint,
): string[] {
  const lines = [
    `  ${displayUrl(item.url)}`,
    `    ${describeAnswer(item.check.statusCode, item.check.message)}, ${count(item.referenceCount, 'reference')}`,
  ];
  if (redirects.length > 0) {
    const chain = redirects.map((hop) => `${hop.url} (${hop.statusCode})`).join(' -> ');
    lines.push(`    redirects: ${chain}`);
  }
  lines.push(
    ...item.sources.map((source: LinkSource) => paint('dim', `    ${formatSource(source)}`)),
  );
  return lines;
}

function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`;
}

/** 850 ms, 4.3 s, 2 min 05 s, 1 h 02 min. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const pad = (value: number): string => String(value).padStart(2, '0');
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${pad(Math.floor(seconds / 60) % 60)} min`;
}
