// Suggested fixes (issue 27) in every CLI format: beside the broken link, the broken anchor and,
// for working links with a better address, in their own list.
import { describe, expect, it } from 'vitest';
import type { ScanEvent, SuggestionEvent } from '@linkaudit/engine';
import { reportOf, shopEvents } from '../test-support/reports.js';
import { linkEvent } from '../test-support/reports.js';
import { formatCsv } from './csv.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

const site = 'https://shop.example.com';
const options = { color: false, version: '1.0.0' };

const suggestions: SuggestionEvent[] = [
  {
    type: 'suggestion',
    url: `${site}/old-page`,
    suggestion: {
      kind: 'closest-page',
      basis: 'path',
      url: `${site}/new-page`,
      confidence: 0.82,
      hops: null,
    },
  },
  {
    type: 'suggestion',
    url: 'https://gone.example.org/',
    suggestion: { kind: 'explain', basis: 'dns', url: null, confidence: null, hops: null },
  },
  {
    type: 'suggestion',
    url: `${site}/about`,
    fragment: '#tema',
    suggestion: {
      kind: 'closest-anchor',
      basis: 'anchor',
      url: `${site}/about#team`,
      confidence: 0.75,
      hops: null,
    },
  },
  {
    type: 'suggestion',
    url: `${site}/shop`,
    suggestion: {
      kind: 'redirect',
      basis: 'redirect-chain',
      url: `${site}/store/`,
      confidence: null,
      hops: 2,
    },
  },
];

const anchorLink = linkEvent(
  `${site}/`,
  `${site}/about#tema`,
  { line: 30, column: 2 },
  { state: 'ok', statusCode: 200, finalUrl: `${site}/about`, redirects: [] },
  { fragment: '#tema', state: 'missing' },
);
const events: ScanEvent[] = [...shopEvents, anchorLink, ...suggestions];
const report = reportOf(events, {}, { anchors: true });

describe('suggested fixes in the CLI formats', () => {
  it('text: a fix line under the link, and the links to update', () => {
    const text = formatText(report, options);
    expect(text).toContain(
      `  ${site}/old-page\n    404 Not Found, 2 references\n    fix: → ${site}/new-page (82%) Page not found; the page with the most similar address is the likely new home.\n`,
    );
    expect(text).toContain('    fix: The host name does not exist (DNS lookup failed).');
    expect(text).toContain(`    fix: → ${site}/about#team (75%) The target page has no such id`);
    expect(text).toContain(
      `Links to update (1)\n  ${site}/shop\n    fix: → ${site}/store/ The link goes through a chain of 2 redirects`,
    );
  });

  it('JSON: a suggestion object with its reason in words, only where there is one', () => {
    const json = JSON.parse(formatJson(report, options)) as {
      broken: Array<{ url: string; suggestion?: Record<string, unknown> }>;
      anchors: { broken: Array<{ suggestion?: Record<string, unknown> }> };
      linkFixes: unknown[];
    };
    const oldPage = json.broken.find((item) => item.url === `${site}/old-page`);
    expect(oldPage?.suggestion).toEqual({
      kind: 'closest-page',
      basis: 'path',
      url: `${site}/new-page`,
      confidence: 0.82,
      hops: null,
      why: 'Page not found; the page with the most similar address is the likely new home.',
    });
    expect(json.broken.find((item) => item.url === `${site}/moved`)).not.toHaveProperty(
      'suggestion',
    );
    expect(json.anchors.broken[0]?.suggestion).toMatchObject({ url: `${site}/about#team` });
    expect(json.linkFixes).toEqual([
      {
        url: `${site}/shop`,
        suggestion: expect.objectContaining({ kind: 'redirect', hops: 2 }) as unknown,
      },
    ]);
  });

  it('CSV: the fix in the last column, empty where there is none', () => {
    const rows = formatCsv(report, options).split('\r\n');
    expect(rows[0]?.endsWith(',reference_count,suggested_fix')).toBe(true);
    const oldPage = rows.filter((row) => row.includes(`404,${site}/old-page,`));
    expect(oldPage).toHaveLength(2);
    for (const row of oldPage)
      expect(
        row.endsWith(
          `,2,→ ${site}/new-page (82%) Page not found; the page with the most similar address is the likely new home.`,
        ),
      ).toBe(true);
    expect(rows.find((row) => row.includes(`410,${site}/moved,`))?.endsWith(',1,')).toBe(true);
    expect(rows.find((row) => row.startsWith('broken-anchor,'))).toContain(`→ ${site}/about#team`);
  });

  it('SARIF: the fix read out in the message and kept in the properties', () => {
    const results = JSON.parse(formatSarif(report, options)).runs[0].results as Array<{
      message: { text: string };
      properties: { url?: string; suggestion?: { url: string } };
    }>;
    const oldPage = results.filter((result) => result.properties.url === `${site}/old-page`);
    expect(oldPage).toHaveLength(2);
    expect(oldPage[0]?.message.text).toContain(`Suggested fix: → ${site}/new-page (82%)`);
    expect(oldPage[0]?.properties.suggestion?.url).toBe(`${site}/new-page`);
    const moved = results.find((result) => result.properties.url === `${site}/moved`);
    expect(moved?.message.text).not.toContain('Suggested fix');
  });
});
