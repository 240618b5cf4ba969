import { describe, expect, it } from 'vitest';
import type { LinkCheck, LinkEvent } from '@linkaudit/engine';
import { notCheckedSourcesKept } from '../report.js';
import { linkEvent, reportOf } from '../test-support/reports.js';
import { formatCsv } from './csv.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatSarif } from './sarif.js';
import { formatText, notCheckedShown } from './text.js';

const options = { color: false, version: '1.2.3' };
const home = 'https://shop.example.com/';

/** What the engine reports for the first link past a page's cap (extract/page-link-cap.ts). */
const pastTheCap: LinkCheck = {
  state: 'skipped',
  cause: 'link-cap',
  message:
    'Not checked: the page has more links than the scan reads per page; this one and the 41 after it were not read',
};
const stopped: LinkCheck = {
  state: 'skipped',
  cause: 'limit',
  message: 'Not checked: the scan stopped before reaching it',
};
const excluded: LinkCheck = { state: 'skipped', cause: 'excluded', message: 'Excluded' };

/** The layout's link on every one of 15 pages, left unchecked when the scan stopped. */
const layoutLink: LinkEvent[] = Array.from({ length: 15 }, (_, index) =>
  linkEvent(`${home}p/${index + 10}`, `${home}about`, { line: 3, column: 1 }, stopped),
);
/** More URLs the stopped scan never reached than the text report lists. */
const unreached: LinkEvent[] = Array.from({ length: notCheckedShown + 5 }, (_, index) =>
  linkEvent(home, `${home}far/${String(index).padStart(2, '0')}`, { line: 9, column: 1 }, stopped),
);
const report = reportOf([
  linkEvent(`${home}huge`, `${home}after-cap`, { line: 5000, column: 7 }, pastTheCap),
  linkEvent(home, `${home}private`, { line: 4, column: 1 }, excluded),
  ...layoutLink,
  ...unreached,
]);

describe('links not checked on purpose', () => {
  it('are collected by cause, with their first sources and every reference counted', () => {
    expect(report.notChecked.map((item) => item.check.cause)).toEqual([
      'link-cap',
      ...Array(unreached.length + 1).fill('limit'),
    ]);
    const layout = report.notChecked.find((item) => item.url === `${home}about`)!;
    expect(layout.referenceCount).toBe(15);
    expect(layout.sources.map((source) => source.url)).toEqual(
      Array.from({ length: notCheckedSourcesKept }, (_, index) => `${home}p/${index + 10}`),
    );
    // Skips the user asked for (exclusions) are not listed.
    expect(report.notChecked.some((item) => item.url === `${home}private`)).toBe(false);
  });

  it('get a bounded text section per cause with the reason and where each was found', () => {
    const text = formatText(report, options);
    expect(text).toContain(`  Skipped     ${unreached.length + 2} URLs not checked on purpose`);
    expect(text).toContain('  Links past the per-page cap (1)');
    expect(text).toContain(`    ${home}after-cap\n      ${pastTheCap.message}, 1 reference\n`);
    expect(text).toContain(`      ${home}huge:5000:7 (a href)\n`);
    expect(text).toContain(`      ${home}p/10:3:1 (a href) and 14 more\n`);
    expect(text).toContain(
      `  Not reached: the scan stopped at its limit (${unreached.length + 1})`,
    );
    expect(text).toContain('    and 6 more (all in --format json)');
  });

  it('are in JSON, CSV, JUnit and SARIF, every one of them', () => {
    const json = JSON.parse(formatJson(report, options)) as {
      notChecked: Array<{ url: string; cause: string; referenceCount: number; sources: unknown[] }>;
    };
    expect(json.notChecked).toHaveLength(unreached.length + 2);
    expect(json.notChecked[0]).toMatchObject({
      url: `${home}after-cap`,
      cause: 'link-cap',
      referenceCount: 1,
      sources: [{ url: `${home}huge`, line: 5000, column: 7 }],
    });

    const rows = formatCsv(report, options).trim().split('\r\n');
    expect(rows.filter((row) => row.startsWith('not-checked,'))).toHaveLength(
      1 + notCheckedSourcesKept + unreached.length,
    );
    expect(rows).toContain(
      `not-checked,link-cap,,${home}after-cap,${home}huge,a,href,5000,7,${pastTheCap.message},1,`,
    );

    const junit = formatJunit(report, options);
    expect(junit).toContain(
      `<testcase classname="not-checked.link-cap" name="${home}after-cap" time="0">`,
    );
    expect(junit).toContain('  and 5 more</system-out>');
    expect(junit).toMatch(
      new RegExp(
        `<testsuite name="linkaudit [^"]*" tests="\\d+" failures="\\d+" errors="0" skipped="${unreached.length + 2}"`,
      ),
    );

    const sarif = JSON.parse(formatSarif(report, options)) as {
      runs: Array<{
        tool: { driver: { rules: Array<{ id: string }> } };
        results: Array<{ ruleId: string; ruleIndex: number; level: string }>;
      }>;
    };
    const [run] = sarif.runs;
    const notes = run!.results.filter((result) => result.ruleId.startsWith('not-checked/'));
    expect(notes).toHaveLength(1 + notCheckedSourcesKept + unreached.length);
    for (const note of notes) {
      expect(note.level).toBe('note');
      expect(run!.tool.driver.rules[note.ruleIndex]!.id).toBe(note.ruleId);
    }
  });
});
