import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuleRunnerOptions } from './rule-types.js';
import { createRuleRunner } from './runner.js';
import {
  batchLimits,
  RuleWorkerClient,
  serveRules,
  startRuleRunner,
  type Reply,
  type Request,
} from './rule-thread.js';
import { pageInput, testPage } from './test-support/rule-test.js';

const titleMissing = 4001;
const duplicateTitle = 4004;
const misspelt = 2001;
const options: RuleRunnerOptions = { selectedRules: [titleMissing, duplicateTitle, misspelt] };

// b and c share a title (and name no other canonical address): a site-level finding.
const pages = [
  pageInput(testPage({ head: { title: null } }), { url: 'https://example.com/a' }),
  pageInput(
    testPage({ head: { canonical: null }, body: ['<p>Our spades are forged from stel.</p>'] }),
    { url: 'https://example.com/b' },
  ),
  pageInput(testPage({ head: { canonical: null } }), { url: 'https://example.com/c' }),
];

/** Both ends of the rule worker's protocol over a real MessageChannel (structured cloning). */
function channelRunner(runnerOptions: RuleRunnerOptions = options) {
  const { port1, port2 } = new MessageChannel();
  const calls: string[] = [];
  const sent: Request[] = [];
  let work = 0;
  serveRules(port2, runnerOptions, () => work++);
  const client = new RuleWorkerClient({
    send: (request) => {
      sent.push(request);
      port1.postMessage(request);
    },
    keepAlive: (waiting) => calls.push(waiting ? 'ref' : 'unref'),
    crawlWaits: (waiting) => calls.push(waiting ? 'crawl waits' : 'crawl ahead'),
    close: () => {
      calls.push('close');
      port1.close();
    },
  });
  port1.on('message', (reply: Reply) => client.receive(reply));
  return { client, calls, sent, port1, workDone: () => work };
}

let open: { close(): void }[] = [];
afterEach(() => {
  for (const port of open) port.close();
  open = [];
});

describe('rules on another thread', () => {
  it('finds what the runner on this thread finds, page by page and for the site', async () => {
    const inline = createRuleRunner(options);
    const expected = pages.map((page) => inline.pageFindings(page));
    const { client } = channelRunner();
    // All pages in flight at once, as the crawl sends them; each answer is its own page's.
    const found = await Promise.all(pages.map((page) => client.checkPage(page)));
    expect(found).toEqual(expected);
    expect(found.flat().map((violation) => violation.ruleId)).toEqual([titleMissing]);
    const site = await client.finishSite();
    expect(site).toEqual(inline.finishSite());
    // Misspellings wait for the site's vocabulary and come with the site's findings (issue 25).
    expect(site.map((violation) => violation.ruleId)).toEqual([
      duplicateTitle,
      duplicateTitle,
      misspelt,
    ]);
  });

  it('sends the pages of a moment as one message, and a full batch at once', async () => {
    const { client, sent } = channelRunner();
    const many = Array.from({ length: batchLimits.pages + 2 }, (_, index) => ({
      ...pages[index % pages.length]!,
      url: `https://example.com/${index}`,
    }));
    const answers = many.map((page) => client.checkPage(page));
    // The full batch went out at once; the other two wait for the batch delay.
    expect(sent.map((request) => request.kind === 'pages' && request.pages.length)).toEqual([
      batchLimits.pages,
    ]);
    const found = await Promise.all(answers);
    expect(sent.map((request) => request.kind === 'pages' && request.pages.length)).toEqual([
      batchLimits.pages,
      2,
    ]);
    // Each page gets its own findings back.
    const inline = createRuleRunner(options);
    expect(found).toEqual(many.map((page) => inline.pageFindings(page)));
  });

  it('keeps the process alive only while answers are awaited, and closes after the site', async () => {
    const { client, calls } = channelRunner();
    await Promise.all([client.checkPage(pages[0]!), client.checkPage(pages[1]!)]);
    expect(calls).toEqual(['ref', 'unref']);
    await client.finishSite();
    expect(calls).toEqual(['ref', 'unref', 'ref', 'unref', 'close']);
  });

  it("asks before each page and before the site's findings whether the crawl waits", async () => {
    const { client, calls, workDone } = channelRunner();
    client.crawlWaits(true);
    await Promise.all(pages.map((page) => client.checkPage(page)));
    expect(workDone()).toBe(pages.length);
    client.crawlWaits(false);
    await client.finishSite();
    expect(workDone()).toBe(pages.length + 1);
    expect(calls.filter((call) => call.startsWith('crawl'))).toEqual([
      'crawl waits',
      'crawl ahead',
    ]);
  });

  it('turns an exception of the worker into a rejected check', async () => {
    const { client, port1 } = channelRunner({ selectedRules: [titleMissing] });
    open.push(port1);
    const broken = { ...pages[0]!, html: undefined as unknown as string };
    await expect(client.checkPage(broken)).rejects.toThrow(/^quality rules: /);
    expect(await client.checkPage(pages[0]!)).toHaveLength(1); // the next page is checked
  });

  it('fails every waiting and later check once the worker is gone', async () => {
    const { port1, port2 } = new MessageChannel(); // nobody answers on port2
    open.push(port1, port2);
    const client = new RuleWorkerClient({
      send: (request) => port1.postMessage(request),
      keepAlive: () => {},
      crawlWaits: () => {},
      close: () => {},
    });
    const waiting = client.checkPage(pages[0]!);
    client.fail(new Error('the rule worker stopped'));
    await expect(waiting).rejects.toThrow('the rule worker stopped');
    await expect(client.checkPage(pages[1]!)).rejects.toThrow('the rule worker stopped');
  });

  it('runs on this thread from the TypeScript sources, with the same findings', async () => {
    const runner = startRuleRunner(options);
    expect(runner).not.toBeInstanceOf(RuleWorkerClient);
    expect(await runner.checkPage(pages[0]!)).toEqual(
      createRuleRunner(options).pageFindings(pages[0]!),
    );
  });
});
