import { readFile, writeFile } from 'node:fs/promises';
import { UsageError } from './options.js';
import type { ScanReport } from './report.js';

/**
 * A CI baseline (issue 27): the problems a site is known to have, so a run fails only on new
 * ones. A problem is named by what it is about, never by line or column (those move when a page
 * is edited): a broken URL, a link without an address on its page, a missing #fragment, a host's
 * invalid certificate.
 */
export interface BaselineFile {
  tool: 'linkaudit';
  baselineVersion: 1;
  startUrl: string;
  problems: string[];
}

/** The keys of every failing problem of a report (the ones that make the exit code 1), sorted. */
export function problemKeys(report: ScanReport): string[] {
  const keys = new Set<string>();
  for (const item of report.broken) {
    if (item.url !== '') keys.add(`link ${item.url}`);
    // A link without an address (missing src, invalid URL) is known by where it is.
    else for (const source of item.sources) keys.add(addresslessKey(source));
  }
  for (const anchor of report.brokenAnchors) keys.add(`anchor ${anchor.url}`);
  for (const certificate of report.certificates)
    if (!certificate.valid) keys.add(`certificate ${certificate.host}`);
  return [...keys].sort();
}

function addresslessKey(source: { url: string; element: string; attribute: string }): string {
  return `no-address ${source.url} ${source.element} ${source.attribute}`;
}

export async function writeBaseline(file: string, report: ScanReport): Promise<void> {
  const baseline: BaselineFile = {
    tool: 'linkaudit',
    baselineVersion: 1,
    startUrl: report.done.summary.startUrl,
    problems: problemKeys(report),
  };
  try {
    await writeFile(file, `${JSON.stringify(baseline, null, 2)}\n`);
  } catch (error) {
    throw new Error(`cannot write the baseline to ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The known problems of a baseline file; a usage error (exit 2) when it cannot be used. */
export async function readBaseline(file: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the baseline ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`the baseline ${file} is not JSON (write one with --write-baseline)`);
  }
  if (!isBaseline(parsed)) {
    throw new UsageError(
      `the baseline ${file} is not a linkaudit baseline (write one with --write-baseline)`,
    );
  }
  return new Set(parsed.problems);
}

function isBaseline(value: unknown): value is BaselineFile {
  const candidate = value as Partial<BaselineFile> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.tool === 'linkaudit' &&
    candidate.baselineVersion === 1 &&
    Array.isArray(candidate.problems) &&
    candidate.problems.every((problem) => typeof problem === 'string')
  );
}

/**
 * The report less the problems the baseline knows: every format then lists, and the exit code
 * counts, only the new ones. `baseline.known` says how many were left out, `baseline.fixed`
 * which of the baseline's problems this run did not find.
 */
export function withoutKnownProblems(report: ScanReport, known: ReadonlySet<string>): ScanReport {
  const broken = report.broken
    .map((item) =>
      item.url !== ''
        ? known.has(`link ${item.url}`)
          ? undefined
          : item
        : keepNewSources(item, known),
    )
    .filter((item) => item !== undefined);
  const brokenAnchors = report.brokenAnchors.filter((anchor) => !known.has(`anchor ${anchor.url}`));
  const certificates = report.certificates.filter(
    (certificate) => certificate.valid || !known.has(`certificate ${certificate.host}`),
  );
  const found = problemKeys(report);
  const filtered = { ...report, broken, brokenAnchors, certificates };
  const stillKnown = found.length - problemKeys(filtered).length;
  // What the baseline knows and this run did not find: fixed (or no longer linked).
  const foundNow = new Set(found);
  const fixed = [...known].filter((key) => !foundNow.has(key)).sort();
  return { ...filtered, baseline: { known: stillKnown, fixed } };
}

function keepNewSources<T extends ScanReport['broken'][number]>(
  item: T,
  known: ReadonlySet<string>,
): T | undefined {
  const sources = item.sources.filter((source) => !known.has(addresslessKey(source)));
  return sources.length === 0 ? undefined : { ...item, sources };
}
