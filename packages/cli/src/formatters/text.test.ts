import { stripVTControlCharacters } from 'node:util';
import { ScanStatus } from '@linkaudit/core';
import type { PageInclusionEvent, PageSizeEvent, ScanEvent } from '@linkaudit/engine';
import { describe, expect, it } from 'vitest';
import {
  allChecks,
  auditEvents,
  auditReport,
  auditSummary,
  failedReport,
  reportOf,
  rulesReport,
  shopEvents,
  shopReport,
  shopSummary,
} from '../test-support/reports.js';
import { formatDuration, formatSize, formatText } from './text.js';

const plain = { color: false, version: '1.0.0' };

describe('the text report', () => {
  it('summarises the scan, then lists broken links by reason and the unverified ones apart', () => {
    expect(formatText(shopReport, plain)).toBe(`LinkAudit scan of https://shop.example.com/
  Status      Complete
  Pages       2
  Links       12 found, 10 unique URLs checked
  Broken      7 links to 6 URLs
  Unverified  1 URL
  Duration    4.3 s

Not Found (2)
  https://shop.example.com/moved
    410 Gone, 1 reference
    redirects: https://shop.example.com/moved (301)
    https://shop.example.com/about:7:1 (a href)
  https://shop.example.com/old-page
    404 Not Found, 2 references
    https://shop.example.com/:12:7 (a href)
    https://shop.example.com/about:5:1 (a href)

Internal Server Error (1)
  https://shop.example.com/search?q=shoes&sort=price,asc
    500 Internal Server Error, 1 reference
    https://shop.example.com/about:9:3 (a href)

Invalid Remote Name (1)
  https://gone.example.org/
    DNS lookup failed for gone.example.org (ENOTFOUND), 1 reference
    https://shop.example.com/about:6:1 (a href)

Service Unavailable (1)
  https://cdn.example.net/logo.png
    503 Service Unavailable, 1 reference
    https://shop.example.com/:8:3 (img src)

Source Attribute Missing (1)
  (no address)
    The src attribute is missing or empty, 1 reference
    https://shop.example.com/:20:3 (img src)

Could not be verified (1)
  Bot protection, rate limits, sign-in or a slow host kept them from being checked; check them in a browser.
  https://www.linkedin.com/company/shop
    999 Request denied, 1 reference
    https://shop.example.com/:40:9 (a href)
`);
  });

  it('names the error of a failed scan', () => {
    expect(formatText(failedReport, plain)).toBe(`LinkAudit scan of http://127.0.0.1:9/
  Status      Failed
  Error       The start page could not be fetched: connect ECONNREFUSED 127.0.0.1:9
  Pages       0
  Links       0 found, 0 unique URLs checked
  Broken      none
  Duration    12 ms
`);
  });

  it('says so when nothing is broken, and why a scan stopped early', () => {
    const okOnly = shopEvents.filter((event) => event.check.state === 'ok');
    const report = reportOf(okOnly, {
      status: ScanStatus.OverMaxLinks,
      stoppedBy: 'link-limit',
      summary: {
        ...shopSummary,
        brokenLinks: 0,
        uniqueBrokenLinks: 0,
        uniqueUnverifiedLinks: 0,
        reasons: {},
        durationMs: 125_000,
      },
    });
    expect(formatText(report, plain)).toBe(`LinkAudit scan of https://shop.example.com/
  Status      Link limit reached
  Stopped     the link limit was reached
  Pages       2
  Links       12 found, 10 unique URLs checked
  Broken      none
  Duration    2 min 05 s

No broken links.
`);
  });

  it('says which phases after the crawl stopped at their time limit', () => {
    const report = reportOf(shopEvents, {
      summary: { ...shopSummary, cutShort: ['suggestions', 'page-rank'] },
    });
    expect(formatText(report, plain)).toMatch(
      /\n {2}Partial {5}suggested fixes, page rank: stopped at the time limit\n {2}Pages/,
    );
  });

  it('says how many pages were rendered, why none could be, or that --render would help', () => {
    const line = (rendering: NonNullable<typeof shopSummary.rendering>) =>
      /\n {2}Rendering {3}(.*)\n/.exec(
        formatText(reportOf(shopEvents, { summary: { ...shopSummary, rendering } }), plain),
      )?.[1];
    expect(line({ requested: true, renderedPages: 12, failedPages: 1 })).toBe(
      '12 pages rendered, 1 page not',
    );
    expect(line({ requested: true, renderedPages: 0, failedPages: 0, unavailable: 'No.' })).toBe(
      'No.',
    );
    expect(
      line({ requested: false, scriptBuiltPages: 3, scriptBuiltExample: 'https://a.test/' }),
    ).toBe(
      '3 pages look built by script (e.g. https://a.test/): their links may be missing; scan with --render to read them',
    );
    expect(formatText(reportOf(shopEvents), plain)).not.toContain('Rendering');
  });

  it('says a scan stopped at the error limit, not at the link limit', () => {
    const report = reportOf(shopEvents, {
      status: ScanStatus.OverMaxLinks,
      stoppedBy: 'error-limit',
    });
    expect(formatText(report, plain)).toMatch(
      /^LinkAudit scan of https:\/\/shop\.example\.com\/\n {2}Status {6}Error limit reached\n {2}Stopped {5}the error limit was reached\n {2}Pages/,
    );
  });

  it('uses colours only when asked', () => {
    const coloured = formatText(shopReport, { ...plain, color: true });
    expect(coloured).toContain('\u001b[1m\u001b[31mNot Found (2)\u001b[39m\u001b[22m');
    expect(stripVTControlCharacters(coloured)).toBe(formatText(shopReport, plain));
    expect(formatText(shopReport, plain)).not.toContain('\u001b');
  });
});

describe('the text report of anchors, certificates, sizes, page rank and inclusion', () => {
  it('shows each of them after the links', () => {
    expect(formatText(auditReport, plain)).toBe(`LinkAudit scan of https://shop.example.com/
  Status      Complete
  Pages       4
  Links       5 found, 4 unique URLs checked
  Broken      none
  Anchors     3 broken links to 2 anchors, 2 duplicates, 1 unverifiable
  TLS         3 hosts: 1 invalid, 1 expiring within 30 days
  Duration    4.3 s

No broken links.

Broken anchors (2)
  https://shop.example.com/#contact
    no element with id or name "contact", 1 reference
    https://shop.example.com/about:9:1 (a href)
  https://shop.example.com/about#team
    no element with id or name "team", 2 references
    https://shop.example.com/:14:5 (a href)
    https://shop.example.com/blog:3:1 (a href)
  1 link to a #fragment could not be verified: the target is not an HTML page that could be read.

Duplicate anchors (2)
  https://shop.example.com/:30:1 "nav", first at 5:1
  https://shop.example.com/about:40:3 "main", first at 12:3

Certificates (1 invalid, 1 expiring within 30 days)
  old.example.org
    expired: The certificate has expired, valid until 2024-01-31
  cdn.example.net
    expires in 10 days, on 2025-06-21

Heaviest pages (2 pages over 2 MiB)
   5.3 MB  https://shop.example.com/blog
           image/jpeg 5.2 MB (1 file), text/html 10.0 kB (1 file), video/mp4 0 B (1 file), 1 of unknown size
   2.5 MB  https://shop.example.com/
           image/jpeg 2.5 MB (3 files), text/html 50.0 kB (1 file)
  20.0 kB  https://shop.example.com/about
  16.0 kB  https://shop.example.com/contact

Pages by total size (HTML and resources; 1 MiB = 1,048,576 bytes)
  under 1 MiB     2
  1-2 MiB         0
  2-3 MiB         1
  3-4 MiB         0
  4-5 MiB         0
  5 MiB and over  1

File types
  content type     files     size
  image/jpeg           4   7.6 MB
  text/html            4  80.0 kB
  text/css             1   8.0 kB
  application/pdf      1    999 B

Page rank (4 pages)
  score    rank  page
   10.0  0.4000  https://shop.example.com/
    6.3  0.2500  https://shop.example.com/contact
    5.0  0.2000  https://shop.example.com/about
    3.8  0.1500  https://shop.example.com/blog

Page inclusion
  Sitemaps         https://shop.example.com/sitemap.xml
  Sitemap URLs     4
  Orphans          1 (in the sitemap, linked from no page)
  Sitemap entries  1 broken, 0 redirected, 1 not indexable
  Not in sitemap   1 indexable page
  Not indexable    1 page
  Orphan pages (1)
    https://shop.example.com/blog
  Not indexable (1)
    https://shop.example.com/about: noindex (meta robots), canonical is https://shop.example.com/
  Broken sitemap entries (1)
    https://shop.example.com/gone: 404
`);
  });

  it('colours problems red and warnings yellow, and only when asked', () => {
    const coloured = formatText(auditReport, { ...plain, color: true });
    expect(coloured).toContain('\u001b[1m\u001b[31mBroken anchors (2)\u001b[39m\u001b[22m');
    expect(coloured).toContain('\u001b[1m\u001b[33mDuplicate anchors (2)\u001b[39m\u001b[22m');
    expect(stripVTControlCharacters(coloured)).toBe(formatText(auditReport, plain));
  });

  it('lists at most ten heavy pages and twenty pages of each inclusion problem', () => {
    const site = 'https://big.example.com';
    const pages = Array.from(
      { length: 25 },
      (_, index) => `${site}/p${String(index).padStart(2, '0')}`,
    );
    const events: ScanEvent[] = pages.flatMap((page, index): ScanEvent[] => [
      {
        type: 'page-size',
        page,
        htmlBytes: 1000,
        totalBytes: 3_000_000 + index,
        contents: [{ contentType: 'text/html', totalSize: 3_000_000 + index, count: 1 }],
        unknownSizes: 0,
      } satisfies PageSizeEvent,
      {
        type: 'page-inclusion',
        page,
        statusCode: 200,
        inboundLinks: 0,
        inboundSources: [],
        indexable: false,
        notIndexableBecause: ['robots-txt'],
        inSitemap: true,
        orphan: true,
      } satisfies PageInclusionEvent,
    ]);
    const summary = {
      ...auditSummary,
      pages: 25,
      fattestPages: 25,
      pageSizeBuckets: [0, 0, 25, 0, 0, 0],
      sitemap: { ...auditSummary.sitemap!, sitemaps: [1, 2, 3, 4].map((n) => `${site}/s${n}.xml`) },
    };
    const text = formatText(reportOf(events, { summary }, allChecks), plain);
    const heaviest = text.slice(text.indexOf('Heaviest pages'), text.indexOf('\n\nPages by'));
    expect(heaviest.split('\n')).toEqual([
      'Heaviest pages (25 pages over 2 MiB)',
      ...[24, 23, 22, 21, 20, 19, 18, 17, 16, 15].flatMap((index) => [
        `  3.0 MB  ${site}/p${index}`,
        `          text/html 3.0 MB (1 file)`,
      ]),
      '  and 15 more pages over 2 MiB (all in --format json)',
    ]);
    expect(text).toContain(
      `  Sitemaps         ${site}/s1.xml, ${site}/s2.xml, ${site}/s3.xml and 1 more\n`,
    );
    const orphans = text.slice(
      text.indexOf('  Orphan pages'),
      text.indexOf('  Not indexable (25)'),
    );
    expect(orphans.split('\n')).toEqual([
      '  Orphan pages (25)',
      ...pages.slice(0, 20).map((page) => `    ${page}`),
      '    and 5 more (all in --format json)',
      '',
    ]);
    expect(text).toContain(`  Not indexable (25)\n    ${site}/p00: disallowed by robots.txt\n`);
  });

  it('shows twenty pages by rank, best first', () => {
    const events: ScanEvent[] = Array.from({ length: 30 }, (_, index) => ({
      type: 'page-rank',
      page: `https://big.example.com/p${index}`,
      rank: (index + 1) / 465,
      score: Math.round(((index + 1) / 30) * 100) / 10,
    }));
    const text = formatText(reportOf(events, {}, { pageRank: true }), plain);
    const section = text.slice(text.indexOf('Page rank'));
    const lines = section.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Page rank (top 20 of 30 pages)',
      '  score     rank  page',
      '   10.0  0.06452  https://big.example.com/p29',
      '    9.7  0.06237  https://big.example.com/p28',
    ]);
    expect(lines).toHaveLength(22);
    expect(lines.at(-1)).toBe('    3.7  0.02366  https://big.example.com/p10');
  });

  it('says when anchors are fine, all certificates are valid and no page is heavy', () => {
    const quiet = auditEvents.filter(
      (event) =>
        (event.type === 'link' && event.anchor?.state === 'found') ||
        (event.type === 'certificate' && event.host === 'shop.example.com') ||
        (event.type === 'page-size' && event.totalBytes < 1_000_000),
    );
    const summary = {
      ...auditSummary,
      brokenAnchors: 0,
      duplicateAnchors: 0,
      fattestPages: 0,
      pageSizeBuckets: [2, 0, 0, 0, 0, 0],
      fileTypes: [],
      certificateProblems: 0,
    };
    const text = formatText(reportOf(quiet, { summary }, { anchors: true }), plain);
    expect(text).toContain(
      '  Anchors     none broken\n  TLS         1 host, all certificates valid\n',
    );
    expect(text).toContain(`Heaviest pages (none over 2 MiB)
  20.0 kB  https://shop.example.com/about
  16.0 kB  https://shop.example.com/contact
`);
    expect(text).not.toContain('Broken anchors');
    expect(text).not.toContain('Certificates (');
    expect(text).not.toContain('File types');
    expect(text).not.toContain('Page rank');
    expect(text).not.toContain('Page inclusion');
  });

  it('reports duplicate anchors without --anchors, and a missing sitemap', () => {
    const events = auditEvents.filter((event) => event.type === 'duplicate-anchor');
    const noSitemap = {
      sitemaps: [],
      urls: 0,
      orphans: 0,
      broken: 0,
      redirected: 0,
      notIndexable: 0,
      missingFromSitemap: 0,
    };
    const summary = { ...auditSummary, sitemap: noSitemap };
    const text = formatText(reportOf(events, { summary }, { pageInclusion: true }), plain);
    expect(text).toContain('  Anchors     2 duplicates\n');
    expect(text).toContain('Duplicate anchors (2)\n');
    expect(text).not.toContain('Broken anchors');
    expect(text).toContain(`Page inclusion
  Sitemaps         none found (robots.txt, /sitemap.xml)
  Not indexable    0 pages
`);
  });
});

describe('sizes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [12_345, '12.3 kB'],
    [999_949, '999.9 kB'],
    [999_950, '1.0 MB'],
    [2_500_000, '2.5 MB'],
    [2_097_152, '2.1 MB'],
    [7_340_000_000, '7.3 GB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('durations', () => {
  it.each([
    [850, '850 ms'],
    [4321, '4.3 s'],
    [59_949, '59.9 s'],
    [59_950, '1 min 00 s'],
    [125_000, '2 min 05 s'],
    [3_720_000, '1 h 02 min'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('the quality rules in the text report', () => {
  it('counts per category, then shows each rule with its first 10 violations and its page', () => {
    expect(formatText(rulesReport, plain)).toBe(`LinkAudit scan of https://shop.example.com/
  Status      Complete
  Pages       3
  Links       0 found, 0 unique URLs checked
  Broken      none
  Rules       15 violations of 4 rules
  Duration    4.3 s

No broken links.

Quality rules (15 violations, 3 pages checked)
  category    failed  passed
  Spellcheck       2       1
  SEO              2       7
  (failed and passed count pages per rule)

  2001 Misspelt word (2 violations)
    https://shop.example.com/:14:9  Our shoos are comfy  ("shoos")
    https://shop.example.com/about:8:5  =SUM(A1) teh best
    https://linkaudit.dev/rules/2001

  4001 Title missing (1 violation)
    https://shop.example.com/about:3:1  <head>  (No <title> element)
    https://linkaudit.dev/rules/4001

  4010 More than one h1 heading (12 violations)
    https://shop.example.com/blog:20:1  <h1>Post 2</h1>  (h1 number 2 of 13)
    https://shop.example.com/blog:21:1  <h1>Post 3</h1>  (h1 number 3 of 13)
    https://shop.example.com/blog:22:1  <h1>Post 4</h1>  (h1 number 4 of 13)
    https://shop.example.com/blog:23:1  <h1>Post 5</h1>  (h1 number 5 of 13)
    https://shop.example.com/blog:24:1  <h1>Post 6</h1>  (h1 number 6 of 13)
    https://shop.example.com/blog:25:1  <h1>Post 7</h1>  (h1 number 7 of 13)
    https://shop.example.com/blog:26:1  <h1>Post 8</h1>  (h1 number 8 of 13)
    https://shop.example.com/blog:27:1  <h1>Post 9</h1>  (h1 number 9 of 13)
    https://shop.example.com/blog:28:1  <h1>Post 10</h1>  (h1 number 10 of 13)
    https://shop.example.com/blog:29:1  <h1>Post 11</h1>  (h1 number 11 of 13)
    and 2 more (all in --format json)
    https://linkaudit.dev/rules/4010

  1 rule without violations
`);
  });

  it('says so when the selected rules found nothing', () => {
    const clean = reportOf(
      [],
      {
        summary: {
          ...rulesReport.done.summary,
          rules: {
            checkedPages: 3,
            violations: 0,
            categories: [{ categoryID: 4, passed: 3, failed: 0 }],
          },
        },
      },
      { rules: [4001] },
    );
    const text = formatText(clean, plain);
    expect(text).toContain('  Rules       no violations of 1 rule\n');
    expect(text.slice(text.indexOf('Quality rules')))
      .toBe(`Quality rules (0 violations, 3 pages checked)
  category  failed  passed
  SEO            0       3
  (failed and passed count pages per rule)

  1 rule without violations
`);
  });

  it('colours the section title yellow when there are violations', () => {
    const text = formatText(rulesReport, { color: true, version: '1.0.0' });
    expect(text).toContain('\u001b[33mQuality rules (15 violations');
  });
});
