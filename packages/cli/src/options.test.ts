import { defaultScanRequest, ScanDepth, ScanLimitOption } from '@linkaudit/core';
import { ruleCatalogue } from '@linkaudit/engine/rules';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError, type Command } from './options.js';

async function scanOf(argv: string[]): Promise<Extract<Command, { kind: 'scan' }>> {
  const command = await parseCommandLine(argv);
  if (command.kind !== 'scan') throw new Error(`expected a scan, got ${command.kind}`);
  return command;
}

async function usageErrorOf(argv: string[]): Promise<string> {
  try {
    await parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('a scan with no options', () => {
  it('crawls the whole site with the settings defaults and the CLI URL cap, text to standard output', async () => {
    const command = await scanOf(['scan', 'example.com']);
    expect(command.settings).toEqual(
      defaultScanRequest({
        url: 'http://example.com/',
        scanDepth: ScanDepth.Domain,
        scanLimitOption: ScanLimitOption.Limited,
        maxLinkAmount: 100_000,
      }),
    );
    expect(command.engine).toEqual({});
    expect(command.output).toEqual({ format: 'text', quiet: false });
  });

  it('accepts localhost and private addresses, normalised', async () => {
    expect((await scanOf(['scan', 'http://LOCALHOST:8080'])).settings.url).toBe(
      'http://localhost:8080/',
    );
    expect((await scanOf(['scan', '192.168.1.20/docs#top'])).settings.url).toBe(
      'http://192.168.1.20/docs',
    );
  });

  it('takes options before the command as well as after the address', async () => {
    expect((await scanOf(['--quiet', 'scan', 'example.com'])).output.quiet).toBe(true);
  });
});

describe('--render', () => {
  it('asks the scan to render its pages', async () => {
    expect((await scanOf(['scan', 'example.com', '--render'])).settings.renderPages).toBe(true);
    expect((await scanOf(['scan', 'example.com'])).settings.renderPages).toBeUndefined();
  });
});

describe('every setting as a flag', () => {
  it.each([
    ['page', ScanDepth.SinglePage],
    ['1', ScanDepth.SinglePage],
    ['folder', ScanDepth.AllPagesBelow],
    ['2', ScanDepth.AllPagesBelow],
    ['site', ScanDepth.Domain],
    ['3', ScanDepth.Domain],
  ])('--depth %s', async (value, depth) => {
    expect((await scanOf(['scan', 'example.com', '--depth', value])).settings.scanDepth).toBe(
      depth,
    );
  });

  it('sets numbers, limits and switches', async () => {
    const { settings } = await scanOf([
      'scan',
      'https://example.com/docs/',
      '--max-links=250',
      '--max-depth',
      '7',
      '--max-errors',
      '40',
      '--timeout',
      '0.5',
      '--concurrency',
      '12',
      '--exclude',
      'https://example.com/private/',
      '--exclude',
      'regex:\\?session=',
      '--exclude',
      '*.pdf',
      '--no-images',
      '--no-iframes',
      '--no-certificate-check',
      '--case-sensitive',
      '--anchors',
      '--page-rank',
      '--page-inclusion',
      '--ignore-robots',
    ]);
    expect(settings).toEqual(
      defaultScanRequest({
        url: 'https://example.com/docs/',
        scanDepth: ScanDepth.Domain,
        scanLimitOption: ScanLimitOption.Limited,
        maxLinkAmount: 250,
        maxDepth: 7,
        maxErrorCount: 40,
        timeoutAfter: 0.5,
        maxThreadCount: 12,
        excludeLinks: [
          { link: 'https://example.com/private/' },
          { link: 'regex:\\?session=' },
          { link: '*.pdf' },
        ],
        checkImages: false,
        checkIframes: false,
        checkBrokenCertificate: false,
        caseSensitive: true,
        checkAnchors: true,
        checkPageRank: true,
        checkPageInclusion: true,
        respectRobotsTxt: false,
      }),
    );
  });

  it('caps a scan at 100,000 unique URLs without --max-links (issue 21)', async () => {
    const { settings } = await scanOf(['scan', 'example.com']);
    expect(settings.scanLimitOption).toBe(ScanLimitOption.Limited);
    expect(settings.maxLinkAmount).toBe(100_000);
  });

  it('passes engine options only when given', async () => {
    const { engine } = await scanOf([
      'scan',
      'example.com',
      '--request-timeout',
      '2.5',
      '--retries',
      '0',
      '--user-agent',
      'MyBot/1.0 (+https://example.com/bot)',
    ]);
    expect(engine).toEqual({
      requestTimeoutMs: 2500,
      retries: 0,
      userAgent: 'MyBot/1.0 (+https://example.com/bot)',
    });
  });

  it('reads the overall request deadline', async () => {
    const { engine } = await scanOf(['scan', 'example.com', '--request-deadline', '45']);
    expect(engine).toEqual({ requestDeadlineMs: 45_000 });
  });

  it('reads the output options, short forms included', async () => {
    expect(
      (await scanOf(['scan', 'example.com', '-f', 'sarif', '-o', 'out.sarif', '-q'])).output,
    ).toEqual({
      format: 'sarif',
      file: 'out.sarif',
      quiet: true,
    });
    for (const format of ['text', 'json', 'csv', 'junit', 'sarif']) {
      expect((await scanOf(['scan', 'example.com', `--format=${format}`])).output.format).toBe(
        format,
      );
    }
    expect((await scanOf(['scan', 'example.com', '--output', '-'])).output.file).toBeUndefined();
  });

  it('lets the last of a repeated option win', async () => {
    expect(
      (await scanOf(['scan', 'example.com', '--depth', 'page', '--depth', 'folder'])).settings,
    ).toEqual(expect.objectContaining({ scanDepth: ScanDepth.AllPagesBelow }));
  });
});

describe('help and version', () => {
  it('answers --help, -h, --version and -V', async () => {
    expect(await parseCommandLine(['--help'])).toEqual({ kind: 'help' });
    expect(await parseCommandLine(['scan', '-h'])).toEqual({ kind: 'help' });
    expect(await parseCommandLine(['--version'])).toEqual({ kind: 'version' });
    expect(await parseCommandLine(['-V'])).toEqual({ kind: 'version' });
  });

  it('shows the help even when the rest of the line has mistakes', async () => {
    expect(await parseCommandLine(['scan', '--bogus', '--help'])).toEqual({ kind: 'help' });
  });
});

describe('usage errors', () => {
  it.each([
    [[], 'missing command: linkaudit scan <url>'],
    [['check', 'example.com'], 'unknown command "check"'],
    [['example.com'], 'unknown command "example.com" (did you mean: linkaudit scan example.com?)'],
    [['scan'], 'missing the address to scan: linkaudit scan <url>'],
    [['scan', 'a.com', 'b.com'], 'unexpected argument "b.com"'],
    [['scan', 'a.com', '--bogus'], 'unknown option --bogus'],
    [['scan', 'a.com', '-x'], 'unknown option -x'],
    [['scan', 'a.com', '--images'], 'unknown option --images'],
    [['scan', 'a.com', '--quiet=yes'], '--quiet takes no value'],
    [['scan', 'a.com', '--depth'], '--depth needs a value'],
    [
      ['scan', 'a.com', '--retries', '-1'],
      '--retries needs a value (for a value starting with "-", write --retries=-1)',
    ],
    [
      ['scan', 'a.com', '--depth', 'everything'],
      '--depth must be page, folder or site (got "everything")',
    ],
    [
      ['scan', 'a.com', '--max-links', '0'],
      '--max-links must be a whole number from 1 to 10000000 (got "0")',
    ],
    [
      ['scan', 'a.com', '--max-links', '1e3'],
      '--max-links must be a whole number from 1 to 10000000 (got "1e3")',
    ],
    [
      ['scan', 'a.com', '--max-depth', '1001'],
      '--max-depth must be a whole number from 1 to 1000 (got "1001")',
    ],
    [
      ['scan', 'a.com', '--max-errors', 'many'],
      '--max-errors must be a whole number from 1 to 10000000 (got "many")',
    ],
    [
      ['scan', 'a.com', '--timeout', '0'],
      '--timeout must be a number greater than 0 and at most 168 (got "0")',
    ],
    [
      ['scan', 'a.com', '--timeout', '200'],
      '--timeout must be a number greater than 0 and at most 168 (got "200")',
    ],
    [
      ['scan', 'a.com', '--concurrency', '2.5'],
      '--concurrency must be a whole number from 1 to 500 (got "2.5")',
    ],
    [
      ['scan', 'a.com', '--concurrency', '501'],
      '--concurrency must be a whole number from 1 to 500 (got "501")',
    ],
    [
      ['scan', 'a.com', '--request-timeout', 'soon'],
      '--request-timeout must be a number greater than 0 and at most 3600 (got "soon")',
    ],
    [
      ['scan', 'a.com', '--request-deadline', '0'],
      '--request-deadline must be a number greater than 0 and at most 86400 (got "0")',
    ],
    [
      ['scan', 'a.com', '--retries', '11'],
      '--retries must be a whole number from 0 to 10 (got "11")',
    ],
    [['scan', 'a.com', '--retries=-1'], '--retries must be a whole number from 0 to 10 (got "-1")'],
    [
      ['scan', 'a.com', '--user-agent', ' '],
      '--user-agent must be non-empty text without control characters',
    ],
    [
      ['scan', 'a.com', '--user-agent', 'a\r\nX-Evil: 1'],
      '--user-agent must be non-empty text without control characters',
    ],
    [
      ['scan', 'a.com', '--resolve', 'a.com:8080'],
      '--resolve "a.com:8080": write HOST:PORT:ADDRESS or HOST:ADDRESS, e.g. example.com:443:127.0.0.1',
    ],
    [
      ['scan', 'a.com', '--resolve', 'a.com:80:localhost'],
      '--resolve "a.com:80:localhost": write HOST:PORT:ADDRESS or HOST:ADDRESS, e.g. example.com:443:127.0.0.1',
    ],
    [
      ['scan', 'a.com', '--format', 'xml'],
      '--format must be text, json, csv, junit or sarif (got "xml")',
    ],
    [['scan', 'a.com', '--output='], '--output needs a file name'],
    [['scan', 'a.com', '--exclude='], '--exclude needs a pattern'],
    [['scan', 'a.com', '--exclude', '*.'], '--exclude "*." is not a file type pattern like *.pdf'],
    [
      ['scan', 'a.com', '--exclude', 'regex:'],
      '--exclude "regex:" is not a valid regular expression: empty expression',
    ],
  ])('%j → %s', async (argv, message) => {
    expect(await usageErrorOf(argv)).toBe(message);
  });

  it('names the problem of a regular expression that does not compile', async () => {
    expect(await usageErrorOf(['scan', 'a.com', '--exclude', 'regex:(a'])).toMatch(
      /^--exclude "regex:\(a" is not a valid regular expression: .*Unterminated group/,
    );
  });

  it('lists every unknown option at once', async () => {
    expect(await usageErrorOf(['scan', 'a.com', '--one', '--two'])).toBe(
      'unknown option --one\nunknown option --two',
    );
  });

  it.each([
    ['', 'the address is empty'],
    ['http://', 'the address is empty'],
    ['http://exa mple.com', 'the address contains a space'],
    ['ftp://example.com', 'only http:// and https:// addresses can be scanned'],
    ['http:example.com', 'the address is not a well-formed URL'],
    ['https://user:secret@example.com', 'addresses with a user name or password cannot be scanned'],
    ['http://example', 'the host name is not valid'],
  ])('refuses the address %j: %s', async (url, problem) => {
    expect(await usageErrorOf(['scan', url])).toBe(`invalid address "${url}": ${problem}`);
  });
});

describe('--rules', () => {
  const rulesOf = async (...values: string[]): Promise<number[]> =>
    (await scanOf(['scan', 'a.com', ...values.flatMap((value) => ['--rules', value])])).settings
      .selectedRules;
  const categories =
    '1 Web performance (1001-1015), 2 Spellcheck (2001-2012), 3 Valid HTML (3001-3099), 4 SEO (4001-4017), 5 User Experience (5001-5016)';

  it('runs no rule unless asked', async () => {
    expect((await scanOf(['scan', 'a.com'])).settings.selectedRules).toEqual([]);
  });

  it('takes ids, comma-separated and repeated, each once and in order', async () => {
    expect(await rulesOf('4002,1001', '4002', ' 5003 ')).toEqual([1001, 4002, 5003]);
  });

  it('takes a whole category, readable ids, and mixes them', async () => {
    expect(await rulesOf('category:4')).toEqual(
      Array.from({ length: 17 }, (_, index) => 4001 + index),
    );
    expect(await rulesOf('seo/title-missing,1001', 'category:5')).toEqual([
      1001,
      4001,
      ...Array.from({ length: 16 }, (_, index) => 5001 + index),
    ]);
  });

  it('takes all: every built-in rule', async () => {
    const all = ruleCatalogue()
      .map((rule) => rule.linkAuditorRuleID)
      .sort((a, b) => a - b);
    expect(all.length).toBeGreaterThan(70);
    expect(await rulesOf('all')).toEqual(all);
    expect(await rulesOf('ALL', '1001')).toEqual(all);
  });

  it.each([
    [['9999'], 'unknown rule "9999"; give all, category:N or rule ids of the categories'],
    [['4001,nope'], 'unknown rule "nope"; give all, category:N or rule ids of the categories'],
    [['category:6'], 'unknown category "category:6"; the categories are'],
    [['category:'], 'unknown category "category:"; the categories are'],
  ])('%j is a usage error listing the categories', async (values, start) => {
    const argv = ['scan', 'a.com', ...values.flatMap((value) => ['--rules', value])];
    expect(await usageErrorOf(argv)).toBe(`--rules: ${start} ${categories}`);
  });

  it.each([[['']], [['4001,']], [[',']]])('%j needs a value', async (values) => {
    const argv = ['scan', 'a.com', ...values.flatMap((value) => [`--rules=${value}`])];
    expect(await usageErrorOf(argv)).toBe('--rules needs all, rule ids or category:N');
  });
});

describe('folders, Markdown files and --cache (issue 38)', () => {
  it('reads files and folders as a site rooted at the folder they share, fragments checked', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'linkaudit-options-'));
    try {
      await mkdir(path.join(root, 'docs', 'api'), { recursive: true });
      for (const file of [
        'README.md',
        'docs/index.html',
        'docs/a b.md',
        'docs/api/x.htm',
        'docs/logo.png',
      ])
        await writeFile(path.join(root, file), '');
      const command = await scanOf([
        'scan',
        path.join(root, 'README.md'),
        path.join(root, 'docs'),
        '--root-url',
        'https://example.com/repo',
      ]);
      expect(command.settings).toMatchObject({
        url: 'https://example.com/repo/README.md',
        checkAnchors: true,
      });
      expect(command.engine.localFolder).toEqual({
        rootUrl: 'https://example.com/repo/',
        folder: root,
        pages: [
          'https://example.com/repo/docs/a%20b.md',
          'https://example.com/repo/docs/api/x.htm',
          'https://example.com/repo/docs/',
        ],
      });
      // A folder with an index.html starts there.
      expect((await scanOf(['scan', path.join(root, 'docs')])).settings.url).toBe(
        'http://linkaudit-files.invalid/',
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('reads --cache and its age, a day unless given', async () => {
    expect((await scanOf(['scan', 'a.com', '--cache', 'c.json'])).cache).toEqual({
      file: 'c.json',
      maxAgeMs: 86_400_000,
    });
    expect(
      (await scanOf(['scan', 'a.com', '--cache', 'c.json', '--cache-max-age', '12h'])).cache,
    ).toEqual({
      file: 'c.json',
      maxAgeMs: 43_200_000,
    });
    expect((await scanOf(['scan', 'a.com'])).cache).toBeUndefined();
  });

  it.each([
    [['scan', 'a.com', '--cache-max-age', '1d'], '--cache-max-age needs --cache FILE'],
    [
      ['scan', 'a.com', '--cache', 'c.json', '--cache-max-age', 'tomorrow'],
      '--cache-max-age must be an age like 30m, 12h, 1d or 2w (got "tomorrow")',
    ],
    [['scan', 'a.com', '--root-url', 'https://a.com/'], '--root-url is for folders and files only'],
    [['scan', 'docs/missing.md'], 'no such file or folder: docs/missing.md'],
    [
      ['scan', '.', '--root-url', 'ftp://a.com/'],
      '--root-url must be an http(s) address like https://example.com/ (got "ftp://a.com/")',
    ],
  ])('refuses %j', async (argv, message) => {
    expect(await usageErrorOf(argv)).toBe(message);
  });
});
