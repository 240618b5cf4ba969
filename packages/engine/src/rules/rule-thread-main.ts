// Entry of the rule worker thread (rule-thread.ts starts it with the runner's options).
import { parentPort, workerData } from 'node:worker_threads';
import type { RuleRunnerOptions } from './index.js';
import { serveRules } from './rule-thread.js';

if (parentPort) serveRules(parentPort, workerData as RuleRunnerOptions);
