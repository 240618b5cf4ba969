// Entry of the rule worker thread (rule-thread.ts starts it with the runner's options). A worker
// does not share its process's module compile cache: when the process uses one (the `linkaudit`
// command does), the worker turns it on for the same folder before loading the rules (~70
// modules, html-validate and a spell checker), which is why they are imported only afterwards.
// The worker runs below the crawl's priority while the crawl is ahead of it (thread-priority.ts).
import { enableCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { RuleWorkerData } from './rule-thread.js';
import { ThreadPriority } from './thread-priority.js';

const { options, compileCacheDir, crawlWaiting } = workerData as RuleWorkerData;
const priority = new ThreadPriority();
const followCrawl = () => priority.follow(Atomics.load(crawlWaiting, 0) === 0);
followCrawl();
if (compileCacheDir) enableCompileCache(compileCacheDir);
const { serveRules } = await import('./rule-thread.js');
if (parentPort) serveRules(parentPort, options, followCrawl);
