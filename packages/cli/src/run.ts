import { readFileSync } from 'node:fs';
import { access, constants, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { effectiveLinkLimit, ScanStatus } from '@linkaudit/core';
import {
  crawlSettingsFor,
  runScan,
  type CrawlSettings,
  type DoneEvent,
  type RunScanOptions,
} from '@linkaudit/engine';
import { readBaseline, withoutKnownProblems, writeBaseline } from './baseline.js';
import { csvReport } from './formatters/csv.js';
import { chunked, type Formatter } from './formatters/format.js';
import { jsonReport } from './formatters/json.js';
import { junitReport } from './formatters/junit.js';
import { sarifReport } from './formatters/sarif.js';
import { textReport } from './formatters/text.js';
import { filePathsFor } from './local-files.js';
import { ResultCacheFile } from './result-cache-file.js';
import { parseCommandLine, usage, UsageError, type Command, type Format } from './options.js';
import { createProgressLine } from './progress.js';
import { ReportCollector, type ScanReport } from './report.js';
import { loadRuleCatalogue } from './rules.js';

/** The part of a process stream the CLI writes to (tests pass their own). */
export interface CliStream {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborting it cancels the scan; what was found so far is still reported. */
  signal?: AbortSignal;
}

export interface CliDeps {
  runScan: (settings: CrawlSettings, options: RunScanOptions) => Promise<DoneEvent>;
  now?: () => number;
}

export const ExitCode = { Ok: 0, Broken: 1, Error: 2, Interrupted: 130 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

type ScanCommand = Extract<Command, { kind: 'scan' }>;

/**
 * Each format's report in pieces: it is written as it is made, in chunks of 64 KB, so writing a
 * report takes little memory beyond what the scan collected (the crawl's peak stays the peak).
 */
const formatters: Record<Format, Formatter> = {
  text: textReport,
  json: jsonReport,
  csv: csvReport,
  junit: junitReport,
  sarif: sarifReport,
};

/** The whole command line program; resolves with the exit code and never throws. */
export async function main(
  argv: readonly string[],
  io: CliIo,
  deps: CliDeps = { runScan },
): Promise<ExitCode> {
  try {
    const command = await parseCommandLine(argv);
    if (command.kind === 'help') return await writeAndExit(io.stdout, usage, ExitCode.Ok);
    if (command.kind === 'version') {
      return await writeAndExit(io.stdout, `linkaudit ${cliVersion()}\n`, ExitCode.Ok);
    }
    return await scanCommand(command, io, deps);
  } catch (error) {
    const hint = error instanceof UsageError ? 'Run "linkaudit --help" to see the options.\n' : '';
    return await writeAndExit(
      io.stderr,
      `linkaudit: ${errorMessage(error)}\n${hint}`,
      ExitCode.Error,
    );
  }
}

async function scanCommand(command: ScanCommand, io: CliIo, deps: CliDeps): Promise<ExitCode> {
  await checkOutputFile(command.output.file);
  const { baseline, writeBaseline: baselineFile } = command.output;
  // Read first: a baseline that cannot be used is a usage error before any crawling.
  const known = baseline === undefined ? undefined : await readBaseline(baseline);
  const cache = command.cache
    ? await ResultCacheFile.open(command.cache.file, command.cache.maxAgeMs, deps.now)
    : undefined;
  const scanned = await scan(cache ? withCache(command, cache) : command, io, deps);
  if (cache) await saveCache(cache, command, io);
  if (baselineFile !== undefined) await writeBaseline(baselineFile, scanned);
  const report = known ? withoutKnownProblems(scanned, known) : scanned;
  await writeReport(report, command, io);
  if (report.done.status === ScanStatus.Failed) {
    await write(
      io.stderr,
      `linkaudit: the scan failed: ${report.done.error ?? 'no reason given'}\n`,
    );
  }
  return exitCodeFor(report, command.output);
}

function withCache(command: ScanCommand, cache: ResultCacheFile): ScanCommand {
  return { ...command, engine: { ...command.engine, resultCache: cache } };
}

/** Writes the cache back and says what it saved ("12 results from the cache, 3 checked"). */
async function saveCache(cache: ResultCacheFile, command: ScanCommand, io: CliIo): Promise<void> {
  await cache.save();
  if (command.output.quiet) return;
  const results = (count: number) => `${count} result${count === 1 ? '' : 's'}`;
  await write(
    io.stderr,
    `linkaudit: ${results(cache.hits)} of links to other sites from the cache, ${results(cache.kept)} checked and kept (${command.cache?.file ?? ''})\n`,
  );
}

async function scan(command: ScanCommand, io: CliIo, deps: CliDeps): Promise<ScanReport> {
  const { settings } = command;
  // Reports show problems and only count the links that are fine: the engine need not make an
  // event of each of those (most of a site's links), the collector counts them from the summary.
  const collector = new ReportCollector(
    {
      anchors: settings.checkAnchors,
      pageRank: settings.checkPageRank,
      pageInclusion: settings.checkPageInclusion,
      rules: settings.selectedRules,
    },
    { okLinksOmitted: true },
  );
  // A scan of files names them in its reports, not the addresses the engine gave them.
  const shown = command.files ? filePathsFor(command.files.localFolder) : <T>(value: T) => value;
  const progress = createProgressLine(io.stderr, {
    enabled: !command.output.quiet && io.stderr.isTTY === true,
    now: deps.now,
  });
  try {
    const done = await deps.runScan(crawlSettingsFor(settings), {
      ...command.engine,
      linkEvents: 'problems',
      // A suggested fix beside each problem (issue 27): a few pages may be read again at the end.
      suggestions: true,
      signal: io.signal,
      onEvent(event) {
        if (event.type === 'progress') progress.update(event);
        else collector.add(shown(event));
      },
    });
    if (collector.hasRuleResults) await loadRuleCatalogue();
    return collector.finish(shown(done));
  } catch (error) {
    throw new Error(`the scan stopped with an error: ${errorMessage(error)}`, { cause: error });
  } finally {
    progress.clear();
  }
}

/**
 * 2 when the scan failed, 130 when it was interrupted, else 1 when anything is broken: a link, a
 * #fragment (with --anchors) or a host's certificate, and with --fail-on-unverified a link that
 * could not be verified. Warnings (unverified links otherwise, soft 404s, login walls, duplicate
 * anchors, certificates expiring soon, heavy pages, quality-rule violations) never fail a run.
 */
export function exitCodeFor(
  report: ScanReport,
  options: { failOnUnverified?: boolean } = {},
): ExitCode {
  const { status, summary } = report.done;
  if (status === ScanStatus.Failed) return ExitCode.Error;
  if (status === ScanStatus.Cancelled) return ExitCode.Interrupted;
  // With a baseline the summary still counts the known problems: only the lists say what is new.
  const counted = report.baseline === undefined;
  const broken =
    report.broken.length > 0 ||
    (counted && summary.uniqueBrokenLinks > 0) ||
    report.brokenAnchors.length > 0 ||
    (counted && summary.brokenAnchors > 0) ||
    report.certificates.some((certificate) => !certificate.valid) ||
    (options.failOnUnverified === true &&
      (report.unverified.length > 0 || (counted && report.done.summary.uniqueUnverifiedLinks > 0)));
  return broken ? ExitCode.Broken : ExitCode.Ok;
}

async function writeReport(report: ScanReport, command: ScanCommand, io: CliIo): Promise<void> {
  const { format, file, quiet } = command.output;
  const color = format === 'text' && !file && io.stdout.isTTY === true && colorAllowed(io.env);
  const chunks = chunked(formatters[format](report, { color, version: cliVersion() }));
  if (!file) {
    for (const chunk of chunks) await write(io.stdout, chunk);
    // The report may be going to a file or a pipe: the terminal learns it is partial here.
    const stop = stopText(report, command);
    if (stop && !quiet) await write(io.stderr, `linkaudit: ${stop}\n`);
    return;
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'w');
    for (const chunk of chunks) await handle.write(chunk);
    await handle.close();
  } catch (error) {
    await handle?.close().catch(() => undefined);
    throw new Error(`cannot write the report to ${file}: ${errorMessage(error)}`, { cause: error });
  }
  if (!quiet) await write(io.stderr, `linkaudit: ${resultLine(report, command)}\n`);
}

/**
 * The terminal line after a report written to a file: what was found, and first why the scan
 * stopped when a limit stopped it (the report then covers only part of the site). "stopped after
 * 5000 broken URLs (--max-errors 5000), 2 broken anchors; report written to report.json".
 */
function resultLine(report: ScanReport, command: ScanCommand): string {
  const { uniqueBrokenLinks: broken } = report.done.summary;
  const anchors = report.brokenAnchors.length;
  const violations = report.rules?.violations.length;
  const brokenUrls = `${broken} broken URL${broken === 1 ? '' : 's'}`;
  const stop = stopText(report, command);
  const found = [
    report.done.stoppedBy === 'error-limit' && stop ? stop : brokenUrls,
    ...(anchors > 0 ? [`${anchors} broken anchor${anchors === 1 ? '' : 's'}`] : []),
    ...(violations === undefined
      ? []
      : [`${violations} rule violation${violations === 1 ? '' : 's'}`]),
  ].join(', ');
  const first = stop && report.done.stoppedBy !== 'error-limit' ? `${stop}; ` : '';
  return `${first}${found}; report written to ${command.output.file ?? ''}`;
}

/**
 * Why a limit stopped the scan, with the flag that sets it (its default when not given), or
 * undefined when it ran to its end (or was cancelled, or failed: those say so themselves).
 */
function stopText(report: ScanReport, { settings }: ScanCommand): string | undefined {
  const broken = report.done.summary.uniqueBrokenLinks;
  switch (report.done.stoppedBy) {
    case 'error-limit':
      return `stopped after ${broken} broken URL${broken === 1 ? '' : 's'} (--max-errors ${settings.maxErrorCount})`;
    case 'link-limit':
      return `stopped at the link limit (--max-links ${effectiveLinkLimit(settings)})`;
    case 'timeout':
      return `stopped at the time limit (--timeout ${settings.timeoutAfter})`;
    default:
      return undefined;
  }
}

/** Finds an unwritable report path before the scan, not after hours of crawling. */
async function checkOutputFile(file: string | undefined): Promise<void> {
  if (!file) return;
  const folder = dirname(resolve(file));
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new Error(`cannot write the report to ${file}: ${folder} is not a writable folder`);
  }
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new Error(`cannot write the report to ${file}: it is a folder`);
  }
}

/** https://no-color.org: any non-empty NO_COLOR turns colours off; so does a dumb terminal. */
function colorAllowed(env: CliIo['env']): boolean {
  return (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
}

let version: string | undefined;

/** The version of this package (src/ and dist/ both sit one folder below package.json). */
export function cliVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
  return version;
}

async function writeAndExit(stream: CliStream, text: string, code: ExitCode): Promise<ExitCode> {
  await write(stream, text);
  return code;
}

/** Resolves once the text is handed to the operating system; a closed pipe (| head) is no error. */
function write(stream: CliStream, text: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    stream.write(text, (error) => {
      if (error && (error as NodeJS.ErrnoException).code !== 'EPIPE') reject(error);
      else resolvePromise();
    });
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
