// The rules off the crawl's thread. Every rule works on a DOM of the page, and parsing and
// reading it allocates about 200 KB per page. On the crawl's thread that garbage made each
// young-generation collection copy the crawl's requests in flight once more and filled the old
// generation three times as often: on the 10,000-page bench site the collector's time rose from
// 0.9 s to 4.5 s, more than the rules' own work. In a worker the rules have a heap of their own,
// and a second core runs them while the crawl fetches the next pages.
//
// Pages travel in batches. A message to a thread that sleeps costs both threads a wake-up: about
// 50 µs of CPU for a page sent and answered alone, as much as the rules' own work on it, against
// 6 µs when messages queue up. So the client gathers the pages that arrive within a couple of
// milliseconds (or until a batch is full) and the worker answers each batch with one message.
import { getCompileCacheDir } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import {
  packFindings,
  unpackFindings,
  type BatchFindings,
  type Outcome,
} from './batch-findings.js';
import type {
  PageFinding,
  RulePageInput,
  RuleRunner,
  RuleRunnerOptions,
  RuleViolation,
} from './rule-types.js';
import { createRuleRunner } from './runner.js';

/** A rule runner whose answers may come from another thread. */
export interface AsyncRuleRunner {
  /** The page's findings; each is about `page.url`. */
  checkPage(page: RulePageInput): Promise<PageFinding[]>;
  /** The site-level findings; the runner is closed afterwards. */
  finishSite(): Promise<RuleViolation[]>;
  /**
   * Whether the crawl now waits for the rules (their backlog is full, or the crawl has ended):
   * the rules are then the scan's critical path, and run at their process's priority.
   */
  crawlWaits(waiting: boolean): void;
}

export type Request =
  { id: number; kind: 'pages'; pages: RulePageInput[] } | { id: number; kind: 'finish' };
export type Reply =
  | { id: number; kind: 'pages'; findings: BatchFindings }
  | { id: number; kind: 'finish'; outcome: { violations: RuleViolation[] } | { error: string } };

/** The worker's end of the channel: its parentPort, or a MessagePort in tests. */
type Port = Pick<MessagePort, 'postMessage' | 'on'>;

/**
 * The worker's side: answers each batch with the runner's findings, page by page, in order.
 * `beforeWork` runs before each page and before the site's findings (the worker follows the
 * crawl's state there: thread-priority.ts).
 */
export function serveRules(port: Port, options: RuleRunnerOptions, beforeWork = () => {}): void {
  const runner = createRuleRunner(options);
  port.on('message', (request: Request) => {
    if (request.kind === 'pages') {
      const findings = packFindings(
        request.pages.map((page) => {
          beforeWork();
          return checkOne(runner, page);
        }),
      );
      const reply: Reply = { id: request.id, kind: 'pages', findings };
      // The number columns move to the other thread instead of being copied.
      port.postMessage(reply, [findings.counts.buffer, findings.numbers.buffer]);
      return;
    }
    let outcome: { violations: RuleViolation[] } | { error: string };
    beforeWork();
    try {
      outcome = { violations: runner.finishSite() };
    } catch (error) {
      outcome = { error: messageOf(error) };
    }
    port.postMessage({ id: request.id, kind: 'finish', outcome } satisfies Reply);
  });
}

function checkOne(runner: RuleRunner, page: RulePageInput): Outcome {
  try {
    // Findings leave the page's address out: the client knows it, so it crosses over once.
    return { findings: runner.pageFindings(page) };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** How the client reaches the worker. */
interface Channel {
  send(request: Request): void;
  /** Called with true while answers are awaited, so the process does not exit under them. */
  keepAlive(waiting: boolean): void;
  /** Tells the worker, between two of its pages, whether the crawl waits for it. */
  crawlWaits(waiting: boolean): void;
  close(): void;
}

/** When a batch goes out: full, large, or this long after its first page. */
export const batchLimits = { pages: 32, chars: 1 << 20, delayMs: 2 };

type WaitingPage = (outcome: Outcome) => void;

/** The crawl's side of a rule worker: one promise per page, settled by its batch's reply. */
export class RuleWorkerClient implements AsyncRuleRunner {
  private readonly batches = new Map<number, WaitingPage[]>();
  private finishing: ((reply: Reply & { kind: 'finish' }) => void) | undefined;
  private batch: { pages: RulePageInput[]; waiting: WaitingPage[]; chars: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private failure: Error | undefined;

  constructor(private readonly channel: Channel) {}

  checkPage(page: RulePageInput): Promise<PageFinding[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const settle = (outcome: Outcome) => {
        if ('error' in outcome) reject(new Error(`quality rules: ${outcome.error}`));
        else resolve(outcome.findings);
      };
      if (!this.batch) {
        if (this.isIdle()) this.channel.keepAlive(true);
        this.batch = { pages: [], waiting: [], chars: 0 };
        this.timer = setTimeout(() => this.flush(), batchLimits.delayMs);
      }
      this.batch.pages.push(page);
      this.batch.waiting.push(settle);
      this.batch.chars += page.html?.length ?? 0;
      if (this.batch.pages.length >= batchLimits.pages || this.batch.chars >= batchLimits.chars)
        this.flush();
    });
  }

  async finishSite(): Promise<RuleViolation[]> {
    try {
      if (this.failure) throw this.failure;
      this.flush();
      const reply = await new Promise<Reply & { kind: 'finish' }>((resolve) => {
        if (this.isIdle()) this.channel.keepAlive(true);
        this.finishing = resolve;
        this.channel.send({ id: this.nextId++, kind: 'finish' });
      });
      if ('error' in reply.outcome) throw new Error(`quality rules: ${reply.outcome.error}`);
      return reply.outcome.violations;
    } finally {
      this.channel.close();
    }
  }

  crawlWaits(waiting: boolean): void {
    this.channel.crawlWaits(waiting);
  }

  /** The worker died (an exception outside any rule, or out of memory): every request fails. */
  fail(error: Error): void {
    this.failure = error;
    clearTimeout(this.timer);
    const waiting = [...this.batches.values(), this.batch?.waiting ?? []].flat();
    this.batches.clear();
    this.batch = undefined;
    for (const settle of waiting) settle({ error: error.message });
    this.finishing?.({ id: -1, kind: 'finish', outcome: { error: error.message } });
  }

  /** A reply from the worker. */
  receive(reply: Reply): void {
    if (reply.kind === 'finish') {
      const finish = this.finishing;
      this.finishing = undefined;
      this.keepAliveUnlessWaiting();
      finish?.(reply);
      return;
    }
    const waiting = this.batches.get(reply.id) ?? [];
    this.batches.delete(reply.id);
    this.keepAliveUnlessWaiting();
    const outcomes = unpackFindings(reply.findings);
    for (const [index, settle] of waiting.entries()) settle(outcomes[index]!);
  }

  private flush(): void {
    const batch = this.batch;
    if (!batch) return;
    clearTimeout(this.timer);
    this.batch = undefined;
    const id = this.nextId++;
    this.batches.set(id, batch.waiting);
    this.channel.send({ id, kind: 'pages', pages: batch.pages });
  }

  private isIdle(): boolean {
    return this.batches.size === 0 && !this.batch && !this.finishing;
  }

  private keepAliveUnlessWaiting(): void {
    if (this.isIdle()) this.channel.keepAlive(false);
  }
}

/**
 * What the worker starts with: the runner's options, the process's compile cache, if any, and
 * a cell the crawl's thread sets to 1 while the crawl waits for the rules (read between pages:
 * a message would queue behind the pages that are the backlog).
 */
export interface RuleWorkerData {
  options: RuleRunnerOptions;
  compileCacheDir: string | undefined;
  crawlWaiting: Int32Array;
}

// The compiled worker entry; the TypeScript sources (tests) have none and run the rules inline.
const workerEntry = new URL('./rule-thread-main.js', import.meta.url);
const compiled = import.meta.url.endsWith('.js');

/**
 * The runner of one scan: in a worker thread when the machine has a second core for it and
 * the engine runs compiled, else on this thread. Throws at once, as createRuleRunner does,
 * when a custom rule cannot be used.
 */
export function startRuleRunner(options: RuleRunnerOptions): AsyncRuleRunner {
  const inline = createRuleRunner(options); // also checks the custom rules before any page
  if (!compiled || availableParallelism() < 2) {
    return {
      checkPage: (page) => answer(() => inline.pageFindings(page)),
      finishSite: () => answer(() => inline.finishSite()),
      crawlWaits: () => {}, // the rules already run on the crawl's thread
    };
  }
  const crawlWaiting = new Int32Array(new SharedArrayBuffer(4));
  const workerData: RuleWorkerData = {
    options,
    compileCacheDir: getCompileCacheDir(),
    crawlWaiting,
  };
  const worker = new Worker(workerEntry, { workerData });
  worker.unref();
  const client = new RuleWorkerClient({
    send: (request) => worker.postMessage(request),
    keepAlive: (waiting) => (waiting ? worker.ref() : worker.unref()),
    crawlWaits: (waiting) => Atomics.store(crawlWaiting, 0, waiting ? 1 : 0),
    close: () => void worker.terminate(),
  });
  worker.on('message', (reply: Reply) => client.receive(reply));
  worker.on('error', (error: Error) => client.fail(error));
  worker.on('exit', () => client.fail(new Error('the rule worker stopped')));
  return client;
}

/** The result of `work` as a promise; an exception becomes a rejection, as from the worker. */
function answer<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
