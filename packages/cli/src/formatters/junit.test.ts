import { FailureReason } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import {
  auditReport,
  failedReport,
  linkEvent,
  reportOf,
  ruleEvents,
  rulesReport,
  shopReport,
} from '../test-support/reports.js';
import { childrenNamed, parseXml, type XmlElement } from '../test-support/xml.js';
import { formatJunit, junitViolationsListed } from './junit.js';

const options = { color: false, version: '1.0.0' };

function suiteOf(xml: string): XmlElement {
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  const suites = childrenNamed(root, 'testsuite');
  expect(suites).toHaveLength(1);
  return suites[0]!;
}

describe('the JUnit report', () => {
  it('is one suite: a passing case for the OK links, a failure per broken URL, a skip per unverified one', () => {
    const xml = formatJunit(shopReport, options);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const root = parseXml(xml);
    const suite = suiteOf(xml);
    const totals = { tests: '8', failures: '6', errors: '0', skipped: '1', time: '4.321' };
    expect(root.attributes).toEqual({ name: 'linkaudit', ...totals });
    expect(suite.attributes).toEqual({ name: 'linkaudit https://shop.example.com/', ...totals });

    const properties = childrenNamed(childrenNamed(suite, 'properties')[0]!, 'property');
    expect(
      Object.fromEntries(properties.map((p) => [p.attributes.name, p.attributes.value])),
    ).toEqual({
      startUrl: 'https://shop.example.com/',
      status: 'Complete',
      pages: '2',
      totalLinks: '12',
      uniqueLinks: '10',
      brokenLinks: '7',
      brokenAnchors: '0',
      duplicateAnchors: '0',
      fattestPages: '0',
      certificateProblems: '0',
    });

    const cases = childrenNamed(suite, 'testcase');
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name])).toEqual([
      ['linkaudit', '3 of 12 links OK'],
      ['broken-link.source-attribute-missing', '(no address)'],
      ['broken-link.service-unavailable', 'https://cdn.example.net/logo.png'],
      ['broken-link.invalid-remote-name', 'https://gone.example.org/'],
      ['broken-link.not-found', 'https://shop.example.com/moved'],
      ['broken-link.not-found', 'https://shop.example.com/old-page'],
      [
        'broken-link.internal-server-error',
        'https://shop.example.com/search?q=shoes&sort=price,asc',
      ],
      ['unverified-link.bot-protection', 'https://www.linkedin.com/company/shop'],
    ]);
    expect(cases[0]!.children.map((child) => child.name)).toEqual(['system-out']);

    const oldPage = childrenNamed(cases[5]!, 'failure')[0]!;
    expect(oldPage.attributes).toEqual({ type: 'Not Found', message: '404 Not Found' });
    expect(oldPage.text).toBe(
      [
        'Not Found: 404 Not Found',
        'referenced 2 times:',
        '  https://shop.example.com/:12:7 (a href)',
        '  https://shop.example.com/about:5:1 (a href)',
      ].join('\n'),
    );
    expect(childrenNamed(cases[4]!, 'failure')[0]!.text).toContain(
      'redirected at https://shop.example.com/moved (301)',
    );

    const unverified = cases[7]!;
    expect(childrenNamed(unverified, 'skipped')[0]!.attributes.message).toBe(
      'could not be verified (bot protection): 999 Request denied',
    );
    expect(childrenNamed(unverified, 'system-out')[0]!.text).toContain(
      'https://shop.example.com/:40:9 (a href)',
    );
  });

  it('fails on broken anchors and invalid certificates, and passes with a warning on the rest', () => {
    const root = parseXml(formatJunit(auditReport, options));
    // The link suite; the page-inclusion suite after it adds 5 passing cases to the totals.
    const suite = childrenNamed(root, 'testsuite')[0]!;
    const totals = { tests: '7', failures: '3', errors: '0', skipped: '0', time: '4.321' };
    expect(root.attributes).toEqual({ name: 'linkaudit', ...totals, tests: '12' });
    expect(suite.attributes).toMatchObject(totals);
    const properties = childrenNamed(childrenNamed(suite, 'properties')[0]!, 'property');
    expect(
      Object.fromEntries(properties.map((p) => [p.attributes.name, p.attributes.value])),
    ).toMatchObject({
      brokenAnchors: '3',
      duplicateAnchors: '2',
      fattestPages: '2',
      certificateProblems: '2',
    });
    const cases = childrenNamed(suite, 'testcase');
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name])).toEqual([
      ['linkaudit', '2 of 5 links OK'],
      ['broken-anchor', 'https://shop.example.com/#contact'],
      ['broken-anchor', 'https://shop.example.com/about#team'],
      ['duplicate-anchor', 'https://shop.example.com/#nav'],
      ['duplicate-anchor', 'https://shop.example.com/about#main'],
      ['certificate.expired', 'old.example.org'],
      ['certificate.expires-soon', 'cdn.example.net'],
    ]);
    const team = childrenNamed(cases[2]!, 'failure')[0]!;
    expect(team.attributes).toEqual({
      type: 'Broken Anchor',
      message: 'no element with id or name "team" on https://shop.example.com/about',
    });
    expect(team.text).toBe(
      [
        'no element with id or name "team" on https://shop.example.com/about',
        'referenced 2 times:',
        '  https://shop.example.com/:14:5 (a href)',
        '  https://shop.example.com/blog:3:1 (a href)',
      ].join('\n'),
    );
    expect(cases[3]!.children.map((child) => child.name)).toEqual(['system-out']);
    expect(childrenNamed(cases[3]!, 'system-out')[0]!.text).toBe(
      'warning: the anchor "nav" on https://shop.example.com/ is defined again at 30:1 (first at 5:1)',
    );
    const expired = childrenNamed(cases[5]!, 'failure')[0]!;
    expect(expired.attributes).toEqual({
      type: 'Invalid Certificate',
      message: 'The certificate has expired',
    });
    expect(expired.text).toBe(
      [
        'expired: The certificate has expired',
        'error code: CERT_HAS_EXPIRED',
        'subject: old.example.org',
        'issuer: R3',
        'valid until: 2024-01-31T23:59:59.000Z',
        'days left: -497',
      ].join('\n'),
    );
    expect(cases[6]!.children.map((child) => child.name)).toEqual(['system-out']);
    expect(childrenNamed(cases[6]!, 'system-out')[0]!.text).toBe(
      [
        'warning: The certificate expires in 10 days (2025-06-21)',
        'subject: *.example.net',
        'issuer: R10',
        'valid until: 2025-06-21T12:00:00.000Z',
        'days left: 10',
      ].join('\n'),
    );
  });

  it('reports a failed scan as an error', () => {
    const suite = suiteOf(formatJunit(failedReport, options));
    expect(suite.attributes).toMatchObject({ tests: '2', failures: '0', errors: '1' });
    const scanCase = childrenNamed(suite, 'testcase')[1]!;
    expect(scanCase.attributes).toMatchObject({ classname: 'linkaudit', name: 'scan' });
    expect(childrenNamed(scanCase, 'error')[0]!.attributes).toEqual({
      type: 'Failed',
      message: 'The start page could not be fetched: connect ECONNREFUSED 127.0.0.1:9',
    });
  });

  it('escapes markup and keeps the XML valid whatever the page or server said', () => {
    const message = `<b>"Bad" & 'worse'</b>\n\ttab \u0001 \ud800 end`;
    const report = reportOf([
      linkEvent(
        'https://shop.example.com/a?x=1&y=<2>',
        'https://shop.example.com/q?a="1"&b=<2>',
        { element: 'a', attribute: 'href', line: 1, column: 2 },
        {
          state: 'broken',
          reason: FailureReason.BadRequest,
          statusCode: 400,
          message,
          redirects: [],
        },
      ),
    ]);
    const xml = formatJunit(report, options);
    expect(xml).not.toContain('\u0001');
    const broken = childrenNamed(suiteOf(xml), 'testcase')[1]!;
    expect(broken.attributes.name).toBe('https://shop.example.com/q?a="1"&b=<2>');
    const failure = childrenNamed(broken, 'failure')[0]!;
    const cleaned = `<b>"Bad" & 'worse'</b>\n\ttab \ufffd \ufffd end`;
    expect(failure.attributes.message).toBe(`400 ${cleaned}`);
    expect(failure.text).toContain(`Bad Request: 400 ${cleaned}`);
    expect(failure.text).toContain('https://shop.example.com/a?x=1&y=<2>:1:2 (a href)');
  });
});

describe('the quality rules in the JUnit report', () => {
  const root = parseXml(formatJunit(rulesReport, options));
  const suites = childrenNamed(root, 'testsuite');
  const propertiesOf = (suite: XmlElement): Record<string, string | undefined> => {
    const entries = childrenNamed(childrenNamed(suite, 'properties')[0]!, 'property').map(
      (p): [string, string | undefined] => [p.attributes.name ?? '', p.attributes.value],
    );
    return Object.fromEntries(entries);
  };

  it('adds a suite per rule category after the links, the totals summing every suite', () => {
    expect(suites.map((suite) => suite.attributes.name)).toEqual([
      'linkaudit https://shop.example.com/',
      'linkaudit rules: Spellcheck',
      'linkaudit rules: SEO',
    ]);
    expect(root.attributes).toEqual({
      name: 'linkaudit',
      tests: '5',
      failures: '3',
      errors: '0',
      skipped: '0',
      time: '4.321',
    });
    expect(suites[2]!.attributes).toMatchObject({ tests: '3', failures: '2', errors: '0' });
    expect(propertiesOf(suites[2]!)).toEqual({
      categoryID: '4',
      checkedPages: '3',
      failed: '2',
      passed: '7',
    });
  });

  it('fails a case per rule with violations, listing them; a rule without any passes', () => {
    const cases = childrenNamed(suites[2]!, 'testcase');
    expect(cases.map((testcase) => testcase.attributes)).toEqual([
      { classname: 'rule.seo.title-missing', name: '4001 Title missing', time: '0' },
      { classname: 'rule.seo.h1-multiple', name: '4010 More than one h1 heading', time: '0' },
      {
        classname: 'rule.seo.image-alt-missing',
        name: '4014 Image without alt attribute',
        time: '0',
      },
    ]);
    expect(cases[2]!.children).toEqual([]);
    const failure = childrenNamed(cases[0]!, 'failure')[0]!;
    expect(failure.attributes).toEqual({ type: 'Title missing', message: '1 violation' });
    expect(failure.text).toBe(
      [
        'Give every page a unique, descriptive <title> in its <head>.',
        'https://linkaudit.dev/rules/4001',
        '  https://shop.example.com/about:3:1  <head> (No <title> element)',
      ].join('\n'),
    );
    const spelling = childrenNamed(childrenNamed(suites[1]!, 'testcase')[0]!, 'failure')[0]!;
    expect(spelling.text.split('\n').slice(2)).toEqual([
      '  https://shop.example.com/:14:9  Our shoos are comfy ("shoos")',
      '  https://shop.example.com/about:8:5  =SUM(A1) teh best',
    ]);
  });

  it(`lists at most ${junitViolationsListed} violations of a rule`, () => {
    const h1 = ruleEvents.find((event) => event.ruleId === 4010)!;
    const many = Array.from({ length: junitViolationsListed + 5 }, (_, index) => ({
      ...h1,
      line: index + 1,
    }));
    const suite = childrenNamed(
      parseXml(formatJunit(reportOf(many, {}, { rules: [4010] }), options)),
      'testsuite',
    )[1]!;
    const lines = childrenNamed(childrenNamed(suite, 'testcase')[0]!, 'failure')[0]!.text.split(
      '\n',
    );
    expect(lines).toHaveLength(2 + junitViolationsListed + 1);
    expect(lines.at(-1)).toBe('  and 5 more (all in --format json)');
  });

  it('has no rule suites without --rules', () => {
    expect(childrenNamed(parseXml(formatJunit(shopReport, options)), 'testsuite')).toHaveLength(1);
  });

  it('lists page inclusion with --page-inclusion: a passing case per page and sitemap entry, warnings for orphans and dead entries', () => {
    const root = parseXml(formatJunit(auditReport, options));
    const suites = childrenNamed(root, 'testsuite');
    expect(suites.map((suite) => suite.attributes.name)).toEqual([
      'linkaudit https://shop.example.com/',
      'linkaudit page inclusion',
    ]);
    const inclusion = suites[1]!;
    expect(inclusion.attributes).toMatchObject({
      tests: '5',
      failures: '0',
      errors: '0',
      skipped: '0',
    });
    const properties = childrenNamed(childrenNamed(inclusion, 'properties')[0]!, 'property');
    expect(
      Object.fromEntries(properties.map((p) => [p.attributes.name, p.attributes.value])),
    ).toEqual({ orphans: '1', inSitemap: '3', notInSitemap: '1' });
    const cases = childrenNamed(inclusion, 'testcase');
    const out = (c: XmlElement) => childrenNamed(c, 'system-out')[0]?.text ?? '';
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name, out(c)])).toEqual([
      [
        'page-inclusion.in-sitemap',
        'https://shop.example.com/',
        'Linked from 3 page(s): https://shop.example.com/about https://shop.example.com/blog https://shop.example.com/contact; indexable',
      ],
      [
        'page-inclusion.in-sitemap',
        'https://shop.example.com/about',
        'Linked from 1 page(s): https://shop.example.com/; not indexable (noindex-meta, canonical-elsewhere)',
      ],
      [
        'page-inclusion.orphan',
        'https://shop.example.com/blog',
        'warning: orphan page, listed in the sitemap and linked from no crawled page; Linked from 0 page(s); indexable',
      ],
      [
        'page-inclusion.not-in-sitemap',
        'https://shop.example.com/contact',
        'Linked from 2 page(s): https://shop.example.com/ https://shop.example.com/about; indexable',
      ],
      [
        'page-inclusion.in-sitemap',
        'https://shop.example.com/gone',
        'warning: listed in the sitemap but answers 404; Linked from 0 page(s); not indexable (status)',
      ],
    ]);
    // Without --page-inclusion there is no such suite.
    expect(childrenNamed(parseXml(formatJunit(shopReport, options)), 'testsuite')).toHaveLength(1);
  });
});
