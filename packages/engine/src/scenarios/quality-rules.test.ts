// Selected quality rules run on every crawled page in the crawl pass (no second download) and
// their findings arrive as rule events, with a pass/fail tally per category in the summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleViolationEvent } from '../events.js';
import { collectScan, eventsOfType, startTestSite, type TestSite } from '../test-support/index.js';

const titleMissing = 4001;
const moreThanOneH1 = 4010;
const langMissing = 5003;

const page = (head: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n<head>${head}</head>\n<body>\n${body}\n</body>\n</html>`;

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite({
    '/': page(
      '<title>A good home page title</title>',
      '<h1>Home</h1>\n<a href="/two.html">two</a>',
    ),
    '/two.html': `<!doctype html>\n<html>\n<head></head>\n<body>\n<h1>One</h1>\n<h1>Two</h1>\n</body>\n</html>`,
  });
});
afterAll(() => site.close());

describe('quality rules in the crawl', () => {
  it('reports the selected rules’ violations with positions, and tallies pages per category', async () => {
    const { events, done } = await collectScan({
      url: site.url('/'),
      scanDepth: 3,
      selectedRules: [titleMissing, moreThanOneH1, langMissing],
    });
    const violations = eventsOfType(events, 'rule')
      .map(({ ruleId, url, line, column }: RuleViolationEvent) => ({ ruleId, url, line, column }))
      .sort((a, b) => a.ruleId - b.ruleId);
    expect(violations).toEqual([
      { ruleId: titleMissing, url: site.url('/two.html'), line: 3, column: 1 },
      { ruleId: moreThanOneH1, url: site.url('/two.html'), line: 6, column: 1 },
      { ruleId: langMissing, url: site.url('/two.html'), line: 2, column: 1 },
    ]);
    expect(done.summary.rules).toEqual({
      checkedPages: 2,
      violations: 3,
      categories: [
        { categoryID: 4, passed: 2, failed: 2 },
        { categoryID: 5, passed: 1, failed: 1 },
      ],
    });
    // Each page was downloaded once: the rules read the text the crawl already had.
    expect(site.requests.filter((request) => request.path === '/two.html')).toHaveLength(1);
  });

  it('runs nothing and reports no tally when no rule is selected', async () => {
    const { events, done } = await collectScan({ url: site.url('/'), scanDepth: 3 });
    expect(eventsOfType(events, 'rule')).toEqual([]);
    expect(done.summary.rules).toBeUndefined();
  });
});
