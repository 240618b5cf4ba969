import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads.js';

/** A computation that finishes when the test says so, counting how often it was started. */
function controlled<T>() {
  let started = 0;
  const finishers: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const compute = () => {
    started += 1;
    return new Promise<T>((resolve, reject) => finishers.push({ resolve, reject }));
  };
  return {
    compute,
    started: () => started,
    finish: (value: T) => finishers.shift()!.resolve(value),
    fail: (error: Error) => finishers.shift()!.reject(error),
  };
}

describe('SharedReads', () => {
  it('runs one computation for reads of one key that arrive while it runs', async () => {
    const reads = new SharedReads<string>(10);
    const work = controlled<string>();
    const first = reads.read('a', false, work.compute);
    const second = reads.read('a', false, work.compute);
    const otherKey = reads.read('b', false, work.compute);
    expect(work.started()).toBe(2);
    work.finish('A');
    work.finish('B');
    expect(await Promise.all([first, second, otherKey])).toEqual(['A', 'A', 'B']);
  });

  it('keeps an answer only when told it cannot change', async () => {
    const reads = new SharedReads<string>(10);
    const work = controlled<string>();
    const live = reads.read('live', false, work.compute);
    work.finish('first');
    await live;
    const liveAgain = reads.read('live', false, work.compute);
    work.finish('second');
    expect(await liveAgain).toBe('second');
    expect(reads.kept('live')).toBeUndefined();

    const finished = reads.read('done', true, work.compute);
    work.finish('final');
    await finished;
    expect(await reads.read('done', true, work.compute)).toBe('final');
    expect(work.started()).toBe(3);
  });

  it('never keeps a failure: the next read computes again', async () => {
    const reads = new SharedReads<string>(10);
    const work = controlled<string>();
    const failing = reads.read('k', true, work.compute);
    work.fail(new Error('database gone'));
    await expect(failing).rejects.toThrow('database gone');
    const retry = reads.read('k', true, work.compute);
    work.finish('ok');
    expect(await retry).toBe('ok');
    expect(work.started()).toBe(2);
  });

  it('drops the least recently used answer past its capacity', async () => {
    const reads = new SharedReads<number>(2);
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
    ] as const) {
      await reads.read(key, true, () => Promise.resolve(value));
    }
    expect(reads.kept('a')).toBe(1); // a is now more recent than b
    await reads.read('c', true, () => Promise.resolve(3));
    expect(reads.kept('b')).toBeUndefined();
    expect(reads.kept('a')).toBe(1);
    expect(reads.kept('c')).toBe(3);
  });
});
