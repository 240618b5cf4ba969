import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// One page on 127.0.0.1 with no <title> and two <h1>; it also lacks a meta description and a
// canonical link, which the SEO category reports as well.
const page = [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '</head>',
  '<body>',
  '<h1>Garden tools</h1>',
  '<p>Spades and rakes.</p>',
  '<h1>Our shop</h1>',
  '</body>',
  '</html>',
].join('\n');

describe('linkaudit scan --rules against a real site', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(page);
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('Not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const scan = async (...options: string[]) => {
    const io = fakeIo();
    const code = await main(['scan', `${base}/`, '--retries', '0', '--quiet', ...options], io);
    expect(io.stderr.text).toBe('');
    return { code, output: io.stdout.text };
  };

  it('runs the SEO rules: the missing title and the second h1 are found, and the run passes', async () => {
    const { code, output } = await scan('--rules', 'category:4', '--format', 'json');
    expect(code).toBe(0);
    const { rules } = JSON.parse(output);
    const head = '<head> <meta charset="utf-8"> </head>';
    const url = `${base}/`;
    expect(rules.violations).toEqual([
      {
        ruleId: 4001,
        ruleName: 'Title missing',
        categoryID: 4,
        url,
        line: 3,
        column: 1,
        snippet: head,
        message: 'No <title> element',
      },
      {
        ruleId: 4005,
        ruleName: 'Meta description missing',
        categoryID: 4,
        url,
        line: 3,
        column: 1,
        snippet: head,
        message: 'No meta description',
      },
      {
        ruleId: 4011,
        ruleName: 'Canonical link missing',
        categoryID: 4,
        url,
        line: 3,
        column: 1,
        snippet: head,
        message: null,
      },
      {
        ruleId: 4010,
        ruleName: 'More than one h1 heading',
        categoryID: 4,
        url,
        line: 9,
        column: 1,
        snippet: '<h1>Our shop</h1>',
        message: 'h1 number 2 of 2',
      },
    ]);
    // Every SEO rule ran on the one page: 17 page checks, 4 of them failed.
    expect(rules.summary).toEqual({
      checkedPages: 1,
      violations: 4,
      categories: [{ categoryID: 4, category: 'SEO', passed: 13, failed: 4 }],
    });
    expect(rules.selected).toHaveLength(17);
  });

  it('shows the same violations in the text report', async () => {
    const { code, output } = await scan('--rules', '4001,4010');
    expect(code).toBe(0);
    expect(output.slice(output.indexOf('Quality rules')))
      .toBe(`Quality rules (2 violations, 1 page checked)
  category  failed  passed
  SEO            2       0
  (failed and passed count pages per rule)

  4001 Title missing (1 violation)
    ${base}/:3:1  <head> <meta charset="utf-8"> </head>  (No <title> element)
    https://linkaudit.dev/rules/4001

  4010 More than one h1 heading (1 violation)
    ${base}/:9:1  <h1>Our shop</h1>  (h1 number 2 of 2)
    https://linkaudit.dev/rules/4010
`);
  });
});
