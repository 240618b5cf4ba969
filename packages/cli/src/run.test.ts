import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanDepth, ScanStatus } from '@linkaudit/core';
import type { ProgressEvent } from '@linkaudit/engine';
import type { FinishedScan } from './report.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usage } from './options.js';
import { exitCodeFor, main } from './run.js';
import { fakeEngine, fakeIo } from './test-support/io.js';
import {
  allChecks,
  auditEvents,
  auditSummary,
  failedReport,
  reportOf,
  ruleEvents,
  rulesSummary,
  shopEvents,
  shopReport,
  shopSummary,
} from './test-support/reports.js';

const complete: FinishedScan = { type: 'done', status: ScanStatus.Complete, summary: shopSummary };
const progress: ProgressEvent = {
  type: 'progress',
  queued: 4,
  processed: 6,
  pages: 2,
  links: 12,
  broken: 6,
  elapsedMs: 3000,
};

describe('the exit code', () => {
  const clean = { ...shopSummary, brokenLinks: 0, uniqueBrokenLinks: 0, reasons: {} };
  const okEvents = shopEvents.filter((event) => event.check.state !== 'broken');

  it('is 0 when nothing is broken, even with links that could not be verified', () => {
    const report = reportOf(okEvents, { summary: clean });
    expect(report.unverified).toHaveLength(1);
    expect(exitCodeFor(report)).toBe(0);
  });

  it('is 1 when a link is broken, also when the scan stopped early', () => {
    expect(exitCodeFor(shopReport)).toBe(1);
    expect(exitCodeFor(reportOf(shopEvents, { status: ScanStatus.Timeout }))).toBe(1);
    expect(exitCodeFor(reportOf(shopEvents, { status: ScanStatus.OverMaxLinks }))).toBe(1);
  });

  it('is 0 for a scan cut short by a limit that found nothing broken', () => {
    const report = reportOf(okEvents, { status: ScanStatus.OverMaxLinks, summary: clean });
    expect(exitCodeFor(report)).toBe(0);
  });

  it('is 1 for a missing anchor or an invalid certificate, 0 for warnings alone', () => {
    const of = (keep: (event: (typeof auditEvents)[number]) => boolean, summary = auditSummary) =>
      exitCodeFor(reportOf(auditEvents.filter(keep), { summary }, allChecks));
    const quiet = { ...auditSummary, brokenAnchors: 0 };
    expect(of(() => true)).toBe(1);
    expect(of((event) => event.type === 'link' && event.anchor?.state === 'missing')).toBe(1);
    expect(of((event) => event.type === 'certificate' && !event.valid, quiet)).toBe(1);
    const warningsOnly = (event: (typeof auditEvents)[number]) =>
      (event.type === 'link' && event.anchor?.state !== 'missing') ||
      event.type === 'duplicate-anchor' ||
      (event.type === 'certificate' && event.valid) ||
      event.type.startsWith('page-');
    expect(of(warningsOnly, quiet)).toBe(0);
  });

  it('is 0 for quality-rule violations alone: they are warnings', () => {
    const report = reportOf(ruleEvents, { summary: rulesSummary }, { rules: [2001, 4001, 4010] });
    expect(report.rules?.violations).toHaveLength(15);
    expect(exitCodeFor(report)).toBe(0);
  });

  it('is 2 when the scan failed and 130 when it was interrupted', () => {
    expect(exitCodeFor(failedReport)).toBe(2);
    expect(exitCodeFor(reportOf(shopEvents, { status: ScanStatus.Cancelled }))).toBe(130);
  });
});

describe('main', () => {
  it('prints the usage for --help and the version for --version', async () => {
    const help = fakeIo();
    expect(await main(['--help'], help)).toBe(0);
    expect(help.stdout.text).toBe(usage);
    const version = fakeIo();
    expect(await main(['--version'], version)).toBe(0);
    expect(version.stdout.text).toBe('linkaudit 1.0.0\n');
  });

  it('explains a usage error on stderr with exit code 2', async () => {
    const io = fakeIo();
    expect(await main(['scan', 'example.com', '--depht', 'site'], io)).toBe(2);
    expect(io.stdout.text).toBe('');
    expect(io.stderr.text).toBe(
      'linkaudit: unknown option --depht\nRun "linkaudit --help" to see the options.\n',
    );
  });

  it('names the problem of a bad address with exit code 2', async () => {
    const io = fakeIo();
    expect(await main(['scan', 'ftp://example.com/'], io)).toBe(2);
    expect(io.stderr.text).toContain(
      'linkaudit: invalid address "ftp://example.com/": only http:// and https:// addresses can be scanned\n',
    );
  });

  it('runs the engine with the settings and options of the command line', async () => {
    const engine = fakeEngine(shopEvents, complete);
    const controller = new AbortController();
    const io = { ...fakeIo(), signal: controller.signal };
    await main(['scan', 'localhost:8080', '--depth', 'folder', '--retries', '1', '-q'], io, engine);
    expect(engine.calls).toHaveLength(1);
    expect(engine.calls[0]!.settings).toMatchObject({
      url: 'http://localhost:8080/',
      scanDepth: ScanDepth.AllPagesBelow,
    });
    expect(engine.calls[0]!.options).toEqual({
      retries: 1,
      linkEvents: 'problems',
      // A suggested fix beside each problem (issue 27).
      suggestions: true,
      signal: controller.signal,
    });
  });

  it('writes the report in the chosen format and exits 1 when links are broken', async () => {
    for (const format of ['text', 'json', 'csv', 'junit', 'sarif']) {
      const io = fakeIo();
      const code = await main(
        ['scan', 'shop.example.com', '-f', format],
        io,
        fakeEngine(shopEvents, complete),
      );
      expect(code).toBe(1);
      expect(io.stdout.text).not.toBe('');
      expect(io.stderr.text).toBe('');
    }
    const io = fakeIo();
    await main(
      ['scan', 'shop.example.com', '--format', 'json'],
      io,
      fakeEngine(shopEvents, complete),
    );
    const json = JSON.parse(io.stdout.text);
    expect((json.broken as { url: string }[]).map((item) => item.url)).toEqual(
      shopReport.broken.map((item) => item.url),
    );
  });

  it('says on stderr that a scan stopped at a limit when the report goes to stdout', async () => {
    const stopped: FinishedScan = {
      type: 'done',
      status: ScanStatus.OverMaxLinks,
      stoppedBy: 'error-limit',
      summary: shopSummary,
    };
    const io = fakeIo();
    const argv = ['scan', 'shop.example.com', '--max-errors', '6', '-f', 'json'];
    expect(await main(argv, io, fakeEngine(shopEvents, stopped))).toBe(1);
    expect(io.stderr.text).toBe('linkaudit: stopped after 6 broken URLs (--max-errors 6)\n');
    expect(JSON.parse(io.stdout.text)).toMatchObject({ stoppedBy: 'error-limit' });
    const quiet = fakeIo();
    await main([...argv, '-q'], quiet, fakeEngine(shopEvents, stopped));
    expect(quiet.stderr.text).toBe('');
  });

  it('reports page rank and inclusion only when their flags are given', async () => {
    const done: FinishedScan = { type: 'done', status: ScanStatus.Complete, summary: auditSummary };
    const plain = fakeIo();
    await main(['scan', 'shop.example.com', '-f', 'json'], plain, fakeEngine(auditEvents, done));
    const without = JSON.parse(plain.stdout.text);
    expect(without.pageRank).toBeUndefined();
    expect(without.pageInclusion).toBeUndefined();
    expect(without.anchors.broken).toHaveLength(2);

    const io = fakeIo();
    const engine = fakeEngine(auditEvents, done);
    const argv = ['scan', 'shop.example.com', '-f', 'json', '--page-rank', '--page-inclusion'];
    expect(await main([...argv, '--anchors'], io, engine)).toBe(1);
    expect(engine.calls[0]!.settings).toMatchObject({
      checkAnchors: true,
      checkPageRank: true,
      checkPageInclusion: true,
    });
    const json = JSON.parse(io.stdout.text);
    expect(json.pageRank).toHaveLength(4);
    expect(json.pageInclusion.pages).toHaveLength(5);
  });

  it('prints why a scan failed, still writes the report, and exits 2', async () => {
    const io = fakeIo();
    const code = await main(
      ['scan', '127.0.0.1:9', '-f', 'json'],
      io,
      fakeEngine([], failedReport.done),
    );
    expect(code).toBe(2);
    expect(io.stderr.text).toBe(
      'linkaudit: the scan failed: The start page could not be fetched: connect ECONNREFUSED 127.0.0.1:9\n',
    );
    expect(JSON.parse(io.stdout.text)).toMatchObject({ status: 'Failed', statusCode: 3 });
  });

  it('exits 2 with the reason when the engine itself throws', async () => {
    const io = fakeIo();
    const code = await main(
      ['scan', 'example.com'],
      io,
      fakeEngine([], new Error('out of sockets')),
    );
    expect(code).toBe(2);
    expect(io.stderr.text).toBe('linkaudit: the scan stopped with an error: out of sockets\n');
    expect(io.stdout.text).toBe('');
  });

  describe('on a terminal', () => {
    it('shows a progress line on stderr, cleared before the report, and colours the text', async () => {
      const io = fakeIo({ tty: true });
      await main(['scan', 'shop.example.com'], io, fakeEngine([progress, ...shopEvents], complete));
      expect(io.stderr.chunks).toEqual([
        '\r\u001b[KScanning: 2 pages, 12 links, 6 broken, 4 queued, 0:03',
        '\r\u001b[K',
      ]);
      expect(io.stdout.text).toContain('\u001b[');
    });

    it('stays quiet with --quiet and has no colours with NO_COLOR', async () => {
      const io = fakeIo({ tty: true, env: { NO_COLOR: '1' } });
      await main(
        ['scan', 'shop.example.com', '--quiet'],
        io,
        fakeEngine([progress, ...shopEvents], complete),
      );
      expect(io.stderr.text).toBe('');
      expect(io.stdout.text).not.toContain('\u001b');
    });

    it('shows no progress and no colours when not a terminal', async () => {
      const io = fakeIo({ tty: false });
      await main(['scan', 'shop.example.com'], io, fakeEngine([progress, ...shopEvents], complete));
      expect(io.stderr.text).toBe('');
      expect(io.stdout.text).not.toContain('\u001b');
    });
  });

  describe('--output', () => {
    let folder: string;
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'linkaudit-cli-'));
    });
    afterEach(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('writes the report to the file and says where on stderr', async () => {
      const file = join(folder, 'report.csv');
      const io = fakeIo({ tty: true });
      expect(
        await main(
          ['scan', 'shop.example.com', '-f', 'csv', '-o', file],
          io,
          fakeEngine(shopEvents, complete),
        ),
      ).toBe(1);
      expect(await readFile(file, 'utf8')).toMatch(/^state,reason,status_code,/);
      expect(io.stdout.text).toBe('');
      expect(io.stderr.text).toBe(`linkaudit: 6 broken URLs; report written to ${file}\n`);
    });

    it('counts broken anchors in the line on stderr', async () => {
      const file = join(folder, 'report.json');
      const io = fakeIo();
      const done: FinishedScan = {
        type: 'done',
        status: ScanStatus.Complete,
        summary: auditSummary,
      };
      await main(
        ['scan', 'shop.example.com', '--anchors', '-o', file],
        io,
        fakeEngine(auditEvents, done),
      );
      expect(io.stderr.text).toBe(
        `linkaudit: 0 broken URLs, 2 broken anchors; report written to ${file}\n`,
      );
    });

    it('counts rule violations in the line on stderr, and the run still passes', async () => {
      const file = join(folder, 'report.sarif');
      const io = fakeIo();
      const done: FinishedScan = {
        type: 'done',
        status: ScanStatus.Complete,
        summary: rulesSummary,
      };
      const engine = fakeEngine(ruleEvents, done);
      const argv = ['scan', 'shop.example.com', '--rules', '2001,category:4', '-f', 'sarif'];
      expect(await main([...argv, '-o', file], io, engine)).toBe(0);
      expect(engine.calls[0]!.settings.selectedRules).toHaveLength(18);
      expect(io.stderr.text).toBe(
        `linkaudit: 0 broken URLs, 15 rule violations; report written to ${file}\n`,
      );
      const sarif = JSON.parse(await readFile(file, 'utf8'));
      expect(sarif.runs[0].results).toHaveLength(15);
    });

    it('says on stderr that the scan stopped at the error limit, naming the flag', async () => {
      const file = join(folder, 'report.json');
      const stopped: FinishedScan = {
        type: 'done',
        status: ScanStatus.OverMaxLinks,
        stoppedBy: 'error-limit',
        summary: shopSummary,
      };
      const io = fakeIo();
      const argv = ['scan', 'shop.example.com', '--max-errors', '6', '-f', 'json', '-o', file];
      expect(await main(argv, io, fakeEngine(shopEvents, stopped))).toBe(1);
      expect(io.stderr.text).toBe(
        `linkaudit: stopped after 6 broken URLs (--max-errors 6); report written to ${file}\n`,
      );
      const byDefault = fakeIo();
      await main(
        ['scan', 'shop.example.com', '-o', file],
        byDefault,
        fakeEngine(shopEvents, stopped),
      );
      expect(byDefault.stderr.text).toBe(
        `linkaudit: stopped after 6 broken URLs (--max-errors 5000); report written to ${file}\n`,
      );
    });

    it('says on stderr that the scan stopped at the link or time limit', async () => {
      const file = join(folder, 'report.txt');
      const stop = (stoppedBy: FinishedScan['stoppedBy'], status: FinishedScan['status']) =>
        fakeEngine(shopEvents, { type: 'done', status, stoppedBy, summary: shopSummary });
      const links = fakeIo();
      const argv = ['scan', 'shop.example.com', '-o', file];
      await main(
        [...argv, '--max-links', '10'],
        links,
        stop('link-limit', ScanStatus.OverMaxLinks),
      );
      expect(links.stderr.text).toBe(
        `linkaudit: stopped at the link limit (--max-links 10); 6 broken URLs; report written to ${file}\n`,
      );
      const time = fakeIo();
      await main([...argv, '--timeout', '0.5'], time, stop('timeout', ScanStatus.Timeout));
      expect(time.stderr.text).toBe(
        `linkaudit: stopped at the time limit (--timeout 0.5); 6 broken URLs; report written to ${file}\n`,
      );
    });

    it('refuses a file in a folder that does not exist before scanning', async () => {
      const engine = fakeEngine(shopEvents, complete);
      const io = fakeIo();
      const file = join(folder, 'missing', 'report.json');
      expect(await main(['scan', 'shop.example.com', '-o', file], io, engine)).toBe(2);
      expect(io.stderr.text).toBe(
        `linkaudit: cannot write the report to ${file}: ${join(folder, 'missing')} is not a writable folder\n`,
      );
      expect(engine.calls).toEqual([]);
    });
  });
});
