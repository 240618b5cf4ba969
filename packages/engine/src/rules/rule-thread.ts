// The rules off the crawl's thread. Every rule works on a DOM of the page, and parsing and
// reading it allocates about 200 KB per page. On the crawl's thread that garbage made each
// young-generation collection copy the crawl's requests in flight once more and filled the old
// generation three times as often: on the 10,000-page bench site the collector's time rose from
// 0.9 s to 4.5 s, more than the rules' own work. In a worker the rules have a heap of their own,
// and a second core runs them while the crawl fetches the next pages.
import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { RulePageInput, RuleRunnerOptions, RuleViolation } from './index.js';
import { createRuleRunner } from './index.js';

/** A rule runner whose answers may come from another thread. */
export interface AsyncRuleRunner {
  checkPage(page: RulePageInput): Promise<RuleViolation[]>;
  /** The site-level findings; the runner is closed afterwards. */
  finishSite(): Promise<RuleViolation[]>;
}

type Job = { kind: 'page'; page: RulePageInput } | { kind: 'finish' };
export type Request = Job & { id: number };
export type Reply = { id: number } & ({ violations: RuleViolation[] } | { error: string });

/** The worker's end of the channel: its parentPort, or a MessagePort in tests. */
type Port = Pick<MessagePort, 'postMessage' | 'on'>;

/** The worker's side: answers each request with the runner's findings, in order. */
export function serveRules(port: Port, options: RuleRunnerOptions): void {
  const runner = createRuleRunner(options);
  port.on('message', (request: Request) => {
    let reply: Reply;
    try {
      const violations =
        request.kind === 'page' ? runner.checkPage(request.page) : runner.finishSite();
      reply = { id: request.id, violations };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

/** How the client reaches the worker. */
interface Channel {
  send(request: Request): void;
  /** Called with true while answers are awaited, so the process does not exit under them. */
  keepAlive(waiting: boolean): void;
  close(): void;
}

/** The crawl's side of a rule worker: one promise per request, settled by its reply. */
export class RuleWorkerClient implements AsyncRuleRunner {
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(private readonly channel: Channel) {}

  checkPage(page: RulePageInput): Promise<RuleViolation[]> {
    return this.request({ kind: 'page', page });
  }

  async finishSite(): Promise<RuleViolation[]> {
    try {
      return await this.request({ kind: 'finish' });
    } finally {
      this.channel.close();
    }
  }

  /** The worker died (an exception outside any rule, or out of memory): every request fails. */
  fail(error: Error): void {
    this.failure = error;
    for (const settle of this.pending.values()) settle({ id: -1, error: error.message });
  }

  private request(job: Job): Promise<RuleViolation[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => {
        this.pending.delete(id);
        if (this.pending.size === 0) this.channel.keepAlive(false);
        if ('error' in reply) reject(new Error(`quality rules: ${reply.error}`));
        else resolve(reply.violations);
      });
      if (this.pending.size === 1) this.channel.keepAlive(true);
      this.channel.send({ ...job, id });
    });
  }

  /** A reply from the worker. */
  receive(reply: Reply): void {
    this.pending.get(reply.id)?.(reply);
  }
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
      checkPage: (page) => answer(() => inline.checkPage(page)),
      finishSite: () => answer(() => inline.finishSite()),
    };
  }
  const worker = new Worker(workerEntry, { workerData: options });
  worker.unref();
  const client = new RuleWorkerClient({
    send: (request) => worker.postMessage(request),
    keepAlive: (waiting) => (waiting ? worker.ref() : worker.unref()),
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
