import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { rulesThreadNice } from './thread-priority.js';

/** A thread's nice value, from its /proc stat line (field 19). */
function niceOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

// Follows a crawl that is ahead, then waits, then is ahead again, on a thread of its own (Node
// strips the module's types itself), and answers with that thread's nice value after each step.
const workerCode = `
  const { parentPort, workerData } = require('node:worker_threads');
  const { readFileSync } = require('node:fs');
  const nice = () => {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  };
  import(workerData.module).then(({ ThreadPriority }) => {
    const priority = new ThreadPriority();
    const steps = [true, false, true].map((ahead) => ({ lowered: priority.follow(ahead), nice: nice() }));
    parentPort.postMessage({ canReturn: priority.canReturn, steps });
  });
`;

interface Answer {
  canReturn: boolean;
  steps: { lowered: boolean; nice: number }[];
}

describe.runIf(process.platform === 'linux')('the rule thread priority', () => {
  it('is lowered while the crawl is ahead and comes back while it waits, for that thread only', async () => {
    const before = niceOf('/proc/thread-self/stat');
    const module = new URL('./thread-priority.ts', import.meta.url).href;
    const worker = new Worker(workerCode, { eval: true, workerData: { module } });
    const answer = await new Promise<Answer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    const low = { lowered: true, nice: Math.min(19, before + rulesThreadNice) };
    const normal = { lowered: false, nice: before };
    // Without the right to come back (an unprivileged process), the priority is never lowered.
    expect(answer.steps).toEqual(answer.canReturn ? [low, normal, low] : [normal, normal, normal]);
    expect(niceOf('/proc/thread-self/stat')).toBe(before);
    expect(niceOf('/proc/self/stat')).toBe(before); // the process's main thread
  });
});
