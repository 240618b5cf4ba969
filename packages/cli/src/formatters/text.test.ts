import { stripVTControlCharacters } from 'node:util';
import { ScanStatus } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import {
  failedReport,
  reportOf,
  shopEvents,
  shopReport,
  shopSummary,
} from '../test-support/reports.js';
import { formatDuration, formatText } from './text.js';

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
  These servers refuse automated requests (bot protection); check them in a browser.
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

  it('uses colours only when asked', () => {
    const coloured = formatText(shopReport, { ...plain, color: true });
    expect(coloured).toContain('\u001b[1m\u001b[31mNot Found (2)\u001b[39m\u001b[22m');
    expect(stripVTControlCharacters(coloured)).toBe(formatText(shopReport, plain));
    expect(formatText(shopReport, plain)).not.toContain('\u001b');
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
