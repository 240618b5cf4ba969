import { describe, expect, it } from 'vitest';
import { Backlog } from './backlog.js';

/** Whether the promise has settled after everything already queued has run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('a bounded backlog', () => {
  it('has room while within both bounds', async () => {
    const backlog = new Backlog({ items: 2, size: 100 });
    backlog.add(40);
    backlog.add(60);
    expect(await settled(backlog.room())).toBe(true);
  });

  it('makes the producer wait past the item bound until an item is done', async () => {
    const backlog = new Backlog({ items: 2, size: 100 });
    for (let item = 0; item < 3; item++) backlog.add(1);
    const room = backlog.room();
    expect(await settled(room)).toBe(false);
    backlog.done(1);
    expect(await settled(room)).toBe(true);
  });

  it('makes the producer wait past the size bound, however few the items', async () => {
    const backlog = new Backlog({ items: 100, size: 100 });
    backlog.add(80);
    backlog.add(30);
    const room = backlog.room();
    expect(await settled(room)).toBe(false);
    backlog.done(30);
    expect(await settled(room)).toBe(true);
  });

  it('wakes every waiting producer, and tells when all is done', async () => {
    const backlog = new Backlog({ items: 1, size: 100 });
    for (let item = 0; item < 3; item++) backlog.add(1);
    const rooms = [backlog.room(), backlog.room()];
    const empty = backlog.empty();
    backlog.done(1);
    backlog.done(1);
    expect(await Promise.all(rooms.map(settled))).toEqual([true, true]);
    expect(await settled(empty)).toBe(false);
    backlog.done(1);
    expect(await settled(empty)).toBe(true);
  });
});
