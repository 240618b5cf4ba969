import { parseArgs } from 'node:util';
import {
  checkScanUrl,
  defaultScanRequest,
  ScanDepth,
  ScanLimitOption,
  type ScanRequest,
  type ScanRequestInput,
  maxScanUrlLength,
  type ScanUrlProblem,
} from '@linkaudit/core';
import type { EngineOptions } from '@linkaudit/engine';
import { parseResolve, resolveLookup } from './resolve.js';
import { fileScanOf, namesFiles, type FileScan } from './local-files.js';
import { loadRuleCatalogue, ruleCategories, ruleCategoryList, type RuleInfo } from './rules.js';

export const formats = ['text', 'json', 'csv', 'junit', 'sarif'] as const;
export type Format = (typeof formats)[number];

export interface OutputOptions {
  format: Format;
  /** Where the report goes; undefined for standard output. */
  file?: string;
  /** No progress line. */
  quiet: boolean;
  /** --baseline: report, and fail on, only the problems this baseline file does not know. */
  baseline?: string;
  /** --write-baseline: write the run's problems to this file, a baseline for later runs. */
  writeBaseline?: string;
  /** --fail-on-unverified: exit 1 when a link could not be verified, as for a broken one. */
  failOnUnverified?: boolean;
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'scan';
      settings: ScanRequest;
      engine: EngineOptions;
      output: OutputOptions;
      /** Files and folders scanned from disk instead of a web address. */
      files?: FileScan;
      /** --cache: external results kept between runs, younger than maxAgeMs. */
      cache?: CacheOptions;
    };

export interface CacheOptions {
  file: string;
  maxAgeMs: number;
}

/** How long a kept result answers for its URL unless --cache-max-age says otherwise: a day. */
export const defaultCacheMaxAge = '1d';

/** A command line we cannot run; the message names the problem (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const usage = `Usage: linkaudit scan <url> [options]
       linkaudit scan <folder or file>... [options]

Crawls a website from <url> and reports its broken links, TLS certificate
problems, page sizes and file types. localhost and private addresses may be
scanned.

Given folders and files instead, checks them without a server: every HTML and
Markdown file (.html, .htm, .md) in them is read as a page of a site whose
root is the folder they share (a folder answers with its index.html); links
between the files are checked on disk, #fragments always (Markdown headings
get GitHub's ids), other links over HTTP. Reports name the files.

Files:
  --root-url URL             the live address of the folder, e.g.
                             https://example.com/: links to it are checked as
                             files

Scope:
  --depth page|folder|site   the start page only, its folder and below, or the
                             whole site (default: site)
  --max-links N              stop after checking N unique URLs, at most
                             10000000 (default: 100000)
  --max-depth N              follow links at most N clicks deep (default: 20)
  --max-errors N             stop after N broken URLs (default: 5000)
  --timeout HOURS            stop after this many hours, e.g. 0.5 (default: 4)
  --exclude PATTERN          skip URLs starting with PATTERN; regex:EXPRESSION
                             for a regular expression, *.pdf for a file type
                             (repeatable)
  --case-sensitive           URLs differing only in case are different URLs
  --ignore-robots            crawl pages that the site's robots.txt disallows

Checks:
  --no-images                do not check images
  --no-iframes               do not check iframes
  --no-certificate-check     do not report invalid TLS certificates
  --anchors                  check that #fragments name an anchor on their page
                             (a missing one counts as broken) and report ids
                             defined twice on a page
  --page-rank                report the PageRank of every page over the site's
                             internal links (score 0-10 and raw)
  --page-inclusion           report whether each page can be indexed (status,
                             noindex, robots.txt, canonical), its inbound links,
                             and the sitemap: orphans, broken and non-indexable
                             entries, pages missing from it
  --render                   load each page of the site in Chromium (Debian's
                             chromium, or CHROMIUM_PATH) and check what its
                             script makes too: links, images, ids, requests;
                             console errors are rule 5016
  --rules LIST               run quality rules: all, rule ids (4001 or
                             seo/title-missing) or category:N (1 Web
                             performance, 2 Spellcheck, 3 Valid HTML, 4 SEO,
                             5 User Experience); comma-separated or
                             repeatable; violations are warnings

Requests:
  --concurrency N            concurrent requests (default: 50)
  --request-timeout SECONDS  time a request may wait for the server to connect,
                             answer or send more (default: 30)
  --request-deadline SECONDS
                             time limit of one request from connecting to the
                             end of its body, however steadily the server sends:
                             a link past it is broken, Time Out (default: 120)
  --retries N                more requests for a URL after a dropped connection,
                             a 5xx or 429 answer, or (once) a time-out
                             (default: 2)
  --user-agent TEXT          the User-Agent header sent (default: a browser's,
                             with LinkAudit/1.0 at its end)
  --resolve HOST:PORT:ADDRESS
                             connect to ADDRESS for HOST instead of asking DNS,
                             as curl's option (HOST:ADDRESS also works; the
                             address serves every port of HOST); repeatable
  --cache FILE               keep the results of links to other sites in FILE
                             and reuse them in later runs: only what is new or
                             older than --cache-max-age is requested again;
                             results from the cache say so (time-outs and 5xx
                             answers are never kept)
  --cache-max-age AGE        how long a kept result is used: 30m, 12h, 1d, 2w
                             (default: 1d)

Output:
  -f, --format FORMAT        text, json, csv, junit or sarif (default: text)
  -o, --output FILE          write the report to FILE (default: standard output)
  -q, --quiet                no progress line
  --baseline FILE            list and fail on only the problems FILE does not
                             know (broken links, anchors, invalid certificates)
  --write-baseline FILE      write this run's problems to FILE, a baseline for
                             later runs
  --fail-on-unverified       exit 1 also when a link could not be verified
                             (bot protection, rate limited past our patience,
                             sign-in needed, host too slow)
  -h, --help                 show this help
  -V, --version              show the version

Exit codes: 0 nothing broken, 1 a broken link, anchor (--anchors) or invalid
certificate found (with --baseline: a new one), 2 usage error or failed scan,
130 interrupted. Unverified links (counted apart, unless --fail-on-unverified)
and warnings (soft 404s, login walls, duplicate anchors, certificates expiring
soon, heavy pages, quality-rule violations) do not fail a run.
`;

const optionSpecs = {
  depth: { type: 'string' },
  'root-url': { type: 'string' },
  'max-links': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-errors': { type: 'string' },
  timeout: { type: 'string' },
  exclude: { type: 'string', multiple: true },
  'case-sensitive': { type: 'boolean' },
  'ignore-robots': { type: 'boolean' },
  'no-images': { type: 'boolean' },
  'no-iframes': { type: 'boolean' },
  'no-certificate-check': { type: 'boolean' },
  anchors: { type: 'boolean' },
  'page-rank': { type: 'boolean' },
  'page-inclusion': { type: 'boolean' },
  render: { type: 'boolean' },
  rules: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  'request-timeout': { type: 'string' },
  'request-deadline': { type: 'string' },
  retries: { type: 'string' },
  'user-agent': { type: 'string' },
  resolve: { type: 'string', multiple: true },
  'fail-on-unverified': { type: 'boolean' },
  cache: { type: 'string' },
  'cache-max-age': { type: 'string' },
  format: { type: 'string', short: 'f' },
  output: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', short: 'q' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;
type OptionName = keyof typeof optionSpecs;

/** The options as given: every value of each string option, and the boolean flags present. */
interface RawOptions {
  strings: Map<OptionName, string[]>;
  flags: Set<OptionName>;
  positionals: string[];
}

/**
 * argv (without node and the script) → the command to run, or a UsageError. Asynchronous because
 * --rules loads the rule catalogue (see rules.ts).
 */
export async function parseCommandLine(argv: readonly string[]): Promise<Command> {
  const raw = readOptions(argv);
  if (raw.flags.has('help')) return { kind: 'help' };
  if (raw.flags.has('version')) return { kind: 'version' };
  const target = readScanTarget(raw);
  const files = typeof target === 'string' ? undefined : target;
  const settings = await readSettings(files?.startUrl ?? (target as string), raw);
  const engine = readEngineOptions(raw);
  const cache = readCacheOptions(raw);
  const command = { kind: 'scan' as const, settings, engine, output: readOutputOptions(raw) };
  if (files) {
    // Fragments into files are certain and cost nothing: always checked (docs/decisions.md).
    settings.checkAnchors = true;
    engine.localFolder = files.localFolder;
  }
  return { ...command, ...(files ? { files } : {}), ...(cache ? { cache } : {}) };
}

function readCacheOptions(raw: RawOptions): CacheOptions | undefined {
  const file = raw.strings.get('cache')?.at(-1);
  const age = raw.strings.get('cache-max-age')?.at(-1);
  if (file === undefined) {
    if (age !== undefined) throw new UsageError('--cache-max-age needs --cache FILE');
    return undefined;
  }
  if (file.trim() === '') throw new UsageError('--cache needs a file name');
  const maxAgeMs = parseMaxAge(age ?? defaultCacheMaxAge);
  if (maxAgeMs === undefined)
    throw new UsageError(`--cache-max-age must be an age like 30m, 12h, 1d or 2w (got "${age}")`);
  return { file, maxAgeMs };
}

/** The web address to crawl, or the files and folders to check. */
function readScanTarget(raw: RawOptions): string | FileScan {
  const [command, first] = raw.positionals;
  const rootUrl = raw.strings.get('root-url')?.at(-1);
  if (command !== 'scan' || first === undefined || !namesFiles(first)) {
    if (rootUrl !== undefined) throw new UsageError('--root-url is for folders and files only');
    return readScanUrl(raw.positionals);
  }
  const paths = raw.positionals.slice(1);
  try {
    return fileScanOf(paths, rootUrl === undefined ? undefined : readRootUrl(rootUrl));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** --root-url: an http(s) address, as the folder's root (a path ends with "/"). */
function readRootUrl(value: string): string {
  const check = checkScanUrl(value, { allowPrivate: true });
  if (!check.ok || !/^https?:\/\//i.test(value.trim()))
    throw new UsageError(
      `--root-url must be an http(s) address like https://example.com/ (got "${value}")`,
    );
  const url = new URL(check.url);
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/**
 * Reads the tokens ourselves (parseArgs non-strict) so every mistake gets our own message, and so
 * --help still works on a command line that has other mistakes.
 */
function readOptions(argv: readonly string[]): RawOptions {
  const { tokens } = parseArgs({
    args: [...argv],
    options: optionSpecs,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const raw: RawOptions = { strings: new Map(), flags: new Set(), positionals: [] };
  const problems: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') raw.positionals.push(token.value);
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(optionSpecs, token.name)) {
      problems.push(`unknown option ${token.rawName}`);
      continue;
    }
    const name = token.name as OptionName;
    if (optionSpecs[name].type === 'boolean') {
      if (token.inlineValue) problems.push(`${token.rawName} takes no value`);
      else raw.flags.add(name);
    } else if (token.value === undefined || (!token.inlineValue && /^-./.test(token.value))) {
      problems.push(
        token.value === undefined
          ? `${token.rawName} needs a value`
          : `${token.rawName} needs a value (for a value starting with "-", write --${name}=${token.value})`,
      );
    } else {
      raw.strings.set(name, [...(raw.strings.get(name) ?? []), token.value]);
    }
  }
  if (problems.length > 0 && !raw.flags.has('help')) throw new UsageError(problems.join('\n'));
  return raw;
}

const urlProblems: Record<ScanUrlProblem, string> = {
  empty: 'the address is empty',
  'inner-space': 'the address contains a space',
  'too-long': `the address is longer than ${maxScanUrlLength} characters`,
  'unsupported-scheme': 'only http:// and https:// addresses can be scanned',
  malformed: 'the address is not a well-formed URL',
  credentials: 'addresses with a user name or password cannot be scanned',
  'invalid-host': 'the host name is not valid',
  'private-host': 'private addresses cannot be scanned',
};

function readScanUrl(positionals: readonly string[]): string {
  const [command, url, ...extra] = positionals;
  if (command === undefined) throw new UsageError('missing command: linkaudit scan <url>');
  if (command !== 'scan') {
    const hint = /[.:/]/.test(command) ? ` (did you mean: linkaudit scan ${command}?)` : '';
    throw new UsageError(`unknown command "${command}"${hint}`);
  }
  if (url === undefined) throw new UsageError('missing the address to scan: linkaudit scan <url>');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const check = checkScanUrl(url, { allowPrivate: true });
  if (!check.ok) throw new UsageError(`invalid address "${url}": ${urlProblems[check.problem]}`);
  return check.url;
}

const depths: Record<string, ScanDepth> = {
  page: ScanDepth.SinglePage,
  '1': ScanDepth.SinglePage,
  folder: ScanDepth.AllPagesBelow,
  '2': ScanDepth.AllPagesBelow,
  site: ScanDepth.Domain,
  '3': ScanDepth.Domain,
};

/**
 * Unique URLs a scan checks unless --max-links says otherwise: the hosted Premium plan's cap. A
 * site of endless unique URLs (a crawler trap the trap rules do not know) then ends with "stopped
 * at the link limit" instead of filling the memory (docs/decisions.md).
 */
export const defaultMaxLinks = 100_000;

/** The CLI crawls the whole site unless told otherwise (the web form's default is one page). */
const defaultDepth = ScanDepth.Domain;

async function readSettings(url: string, raw: RawOptions): Promise<ScanRequest> {
  const value = (name: OptionName): string | undefined => raw.strings.get(name)?.at(-1);
  const input: ScanRequestInput = {
    url,
    scanDepth: readChoice('depth', value('depth'), depths) ?? defaultDepth,
    checkImages: !raw.flags.has('no-images'),
    checkIframes: !raw.flags.has('no-iframes'),
    checkBrokenCertificate: !raw.flags.has('no-certificate-check'),
    checkAnchors: raw.flags.has('anchors'),
    checkPageRank: raw.flags.has('page-rank'),
    checkPageInclusion: raw.flags.has('page-inclusion'),
    caseSensitive: raw.flags.has('case-sensitive'),
    respectRobotsTxt: !raw.flags.has('ignore-robots'),
    ...(raw.flags.has('render') ? { renderPages: true } : {}),
    excludeLinks: (raw.strings.get('exclude') ?? []).map((link) => ({ link: readExclusion(link) })),
  };
  input.scanLimitOption = ScanLimitOption.Limited;
  input.maxLinkAmount =
    readWholeNumber('max-links', value('max-links'), 1, 10_000_000) ?? defaultMaxLinks;
  input.maxDepth = readWholeNumber('max-depth', value('max-depth'), 1, 1000);
  input.maxErrorCount = readWholeNumber('max-errors', value('max-errors'), 1, 10_000_000);
  input.timeoutAfter = readPositiveNumber('timeout', value('timeout'), 168);
  input.maxThreadCount = readWholeNumber('concurrency', value('concurrency'), 1, 500);
  const rules = raw.strings.get('rules');
  if (rules) input.selectedRules = readRules(rules, await loadRuleCatalogue());
  return defaultScanRequest(input);
}

function readEngineOptions(raw: RawOptions): EngineOptions {
  const value = (name: OptionName): string | undefined => raw.strings.get(name)?.at(-1);
  const engine: EngineOptions = {};
  const requestTimeout = readPositiveNumber('request-timeout', value('request-timeout'), 3600);
  if (requestTimeout !== undefined) engine.requestTimeoutMs = Math.ceil(requestTimeout * 1000);
  const deadline = readPositiveNumber('request-deadline', value('request-deadline'), 86_400);
  if (deadline !== undefined) engine.requestDeadlineMs = Math.ceil(deadline * 1000);
  const retries = readWholeNumber('retries', value('retries'), 0, 10);
  if (retries !== undefined) engine.retries = retries;
  const userAgent = value('user-agent');
  if (userAgent !== undefined) {
    // A header value may not hold control characters (a newline would start a new header).
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (userAgent.trim() === '' || /[\u0000-\u001f\u007f]/.test(userAgent)) {
      throw new UsageError('--user-agent must be non-empty text without control characters');
    }
    engine.userAgent = userAgent;
  }
  const resolve = raw.strings.get('resolve') ?? [];
  if (resolve.length > 0) {
    const entries = resolve.map((entry) => {
      const parsed = parseResolve(entry);
      if (!parsed) {
        throw new UsageError(
          `--resolve "${entry}": write HOST:PORT:ADDRESS or HOST:ADDRESS, e.g. example.com:443:127.0.0.1`,
        );
      }
      return parsed;
    });
    engine.lookup = resolveLookup(entries);
  }
  return engine;
}

function readOutputOptions(raw: RawOptions): OutputOptions {
  const formatChoices = Object.fromEntries(formats.map((format) => [format, format]));
  const output: OutputOptions = {
    format: readChoice('format', raw.strings.get('format')?.at(-1), formatChoices) ?? 'text',
    quiet: raw.flags.has('quiet'),
    ...(raw.flags.has('fail-on-unverified') ? { failOnUnverified: true } : {}),
  };
  const file = raw.strings.get('output')?.at(-1);
  if (file !== undefined && file.trim() === '') throw new UsageError('--output needs a file name');
  if (file !== undefined && file !== '-') output.file = file;
  for (const [name, key] of [
    ['baseline', 'baseline'],
    ['write-baseline', 'writeBaseline'],
  ] as const) {
    const path = raw.strings.get(name)?.at(-1);
    if (path !== undefined && path.trim() === '')
      throw new UsageError(`--${name} needs a file name`);
    if (path !== undefined) output[key] = path;
  }
  return output;
}

function readChoice<T>(
  name: OptionName,
  value: string | undefined,
  choices: Record<string, T>,
): T | undefined {
  if (value === undefined) return undefined;
  if (Object.hasOwn(choices, value)) return choices[value];
  const names = Object.keys(choices).filter((choice) => !/^\d+$/.test(choice));
  const list = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  throw new UsageError(`--${name} must be ${list} (got "${value}")`);
}

function readWholeNumber(
  name: OptionName,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return number;
}

function readPositiveNumber(
  name: OptionName,
  value: string | undefined,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (!(number > 0 && number <= max)) {
    throw new UsageError(
      `--${name} must be a number greater than 0 and at most ${max} (got "${value}")`,
    );
  }
  return number;
}

/** An exclusion as the settings form takes it: a prefix, `regex:…` or `*.ext` (checked here). */
function readExclusion(pattern: string): string {
  if (pattern.trim() === '') throw new UsageError('--exclude needs a pattern');
  if (pattern.startsWith('regex:')) {
    const expression = pattern.slice('regex:'.length);
    try {
      if (expression === '') throw new Error('empty expression');
      new RegExp(expression);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UsageError(`--exclude "${pattern}" is not a valid regular expression: ${reason}`);
    }
  }
  if (pattern.startsWith('*.') && !/^\*\.[\w.-]+$/.test(pattern)) {
    throw new UsageError(`--exclude "${pattern}" is not a file type pattern like *.pdf`);
  }
  return pattern;
}

/**
 * `--rules all`, `--rules 1001,4002`, `--rules category:4`, or several of them (repeated or
 * comma-separated): the ids of the built-in rules to run, each once, in id order.
 */
function readRules(values: readonly string[], known: ReadonlyMap<number, RuleInfo>): number[] {
  const selected = new Set<number>();
  for (const item of values.flatMap((value) => value.split(','))) {
    const choice = item.trim().toLowerCase();
    if (choice === '') throw new UsageError('--rules needs all, rule ids or category:N');
    if (choice === 'all') {
      for (const id of known.keys()) selected.add(id);
    } else if (choice.startsWith('category:')) {
      const number = choice.slice('category:'.length).trim();
      const category = ruleCategories().find(({ categoryID }) => String(categoryID) === number);
      if (!category) {
        throw new UsageError(
          `--rules: unknown category "${item.trim()}"; the categories are ${ruleCategoryList()}`,
        );
      }
      for (const id of category.ids) selected.add(id);
    } else {
      const id = /^\d+$/.test(choice) ? Number(choice) : undefined;
      const rule =
        id === undefined
          ? [...known.values()].find((candidate) => candidate.slug === choice)
          : known.get(id);
      if (!rule) {
        throw new UsageError(
          `--rules: unknown rule "${item.trim()}"; give all, category:N or rule ids of the categories ${ruleCategoryList()}`,
        );
      }
      selected.add(rule.id);
    }
  }
  return [...selected].sort((a, b) => a - b);
}

const units: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** "30m", "12h", "1d", "2w" (or seconds) → milliseconds; undefined when it is not one. */
export function parseMaxAge(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([smhdw]?)$/.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * units[match[2] || 's']!;
  return value > 0 ? value : undefined;
}
