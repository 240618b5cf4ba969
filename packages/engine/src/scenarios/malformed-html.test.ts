// Real pages are rarely valid: unclosed tags, stray `<`, unquoted attributes and upper-case tags
// still yield every link; comments and script text yield none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  positionOf,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const malformed = `<html><body>
<div class=nav><a href=/unquoted.html>unquoted</a>
<p>5 < 6 and a stray < here <a href='/single-quoted.html'>single</a>
<table><tr><td><a href="/in-unclosed-table.html">cell
<ul><li><a href="/in-list.html">item
<img src=/img.png alt=x>
<!-- <a href="/commented.html">commented out</a> -->
<script>document.write('<a href="/in-script.html">');</script>
<A HREF="/upper-case.html">upper case</A>
<p><b><i>misnested</b></i> <a href="/after-misnesting.html">after</a>
<a href="/unclosed-at-end.html">the file ends here`;

const lookup = createLookup(['site.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    { '/': malformed },
    { host: 'site.test', fallback: { headers: { 'content-type': 'text/plain' }, body: 'ok' } },
  );
});
afterAll(() => site.close());

describe('malformed HTML', () => {
  it('still yields every link, at the position of its tag', async () => {
    const { links } = await collectScan({ url: site.url('/') }, { lookup });
    const expected: [string, string][] = [
      ['/unquoted.html', '<a href=/unquoted.html'],
      ['/single-quoted.html', "<a href='/single-quoted.html'"],
      ['/in-unclosed-table.html', '<a href="/in-unclosed-table.html"'],
      ['/in-list.html', '<a href="/in-list.html"'],
      ['/img.png', '<img src=/img.png'],
      ['/upper-case.html', '<A HREF="/upper-case.html"'],
      ['/after-misnesting.html', '<a href="/after-misnesting.html"'],
      ['/unclosed-at-end.html', '<a href="/unclosed-at-end.html"'],
    ];
    const byLine = (a: { line: number; column: number }, b: { line: number; column: number }) =>
      a.line - b.line || a.column - b.column;
    expect(
      links
        .map((link) => ({
          target: link.target,
          state: link.check.state,
          line: link.line,
          column: link.column,
        }))
        .sort(byLine),
    ).toEqual(
      expected
        .map(([path, needle]) => ({
          target: site.url(path),
          state: 'ok',
          ...positionOf(malformed, needle),
        }))
        .sort(byLine),
    );
    expect(site.requestsFor('/commented.html')).toEqual([]);
    expect(site.requestsFor('/in-script.html')).toEqual([]);
  });
});
