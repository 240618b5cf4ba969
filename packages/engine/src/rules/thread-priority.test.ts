import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { rulesThreadNice } from './thread-priority.js';

/** A thread's nice value, from its /proc stat line (field 19). */
function niceOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

// Runs lowerThreadPriority on a thread of its own (Node strips the module's types itself) and
// answers with that thread's nice value.
const workerCode = `
  const { parentPort, workerData } = require('node:worker_threads');
  const { readFileSync } = require('node:fs');
  import(workerData.module).then(({ lowerThreadPriority }) => {
    const lowered = lowerThreadPriority();
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    parentPort.postMessage({ lowered, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) });
  });
`;

describe.runIf(process.platform === 'linux')('the rule thread priority', () => {
  it('lowers the calling thread, and the rest of the process keeps its own', async () => {
    const before = niceOf('/proc/thread-self/stat');
    const module = new URL('./thread-priority.ts', import.meta.url).href;
    const worker = new Worker(workerCode, { eval: true, workerData: { module } });
    const answer = await new Promise<{ lowered: boolean; nice: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(answer).toEqual({ lowered: true, nice: Math.min(19, before + rulesThreadNice) });
    expect(niceOf('/proc/thread-self/stat')).toBe(before);
    expect(niceOf('/proc/self/stat')).toBe(before); // the process's main thread
  });
});
