import { describe, expect, it } from 'vitest';
import { HeavyReadAbandoned, HeavyReadLimiter, HeavyReadRefused } from './heavy-reads.js';

const open = () => new AbortController().signal;

describe('HeavyReadLimiter', () => {
  it('runs `perUser` reads of one reader at once, hands a freed place to the next waiter in order, and keeps readers apart', async () => {
    const limiter = new HeavyReadLimiter({ perUser: 2, queueWaitMs: 1000 });
    const first = await limiter.acquire('a', open());
    await limiter.acquire('a', open());
    const order: string[] = [];
    const third = limiter.acquire('a', open()).then((release) => {
      order.push('third');
      return release;
    });
    const fourth = limiter.acquire('a', open()).then(() => order.push('fourth'));
    // Another reader is not affected.
    await limiter.acquire('b', open());
    expect(limiter.running('b')).toBe(1);

    first();
    first(); // a second call gives nothing back twice
    (await third)();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(limiter.running('a')).toBe(2);
  });

  it('refuses a read that waited `queueWaitMs` without a place, with the wait as Retry-After', async () => {
    const limiter = new HeavyReadLimiter({ perUser: 1, queueWaitMs: 50 });
    await limiter.acquire('a', open());
    const refused = limiter.acquire('a', open());
    await expect(refused).rejects.toBeInstanceOf(HeavyReadRefused);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 1 });
  });

  it('drops a waiting read whose client went away: the freed place is given back, not to it', async () => {
    const limiter = new HeavyReadLimiter({ perUser: 1, queueWaitMs: 1000 });
    const release = await limiter.acquire('a', open());
    const controller = new AbortController();
    const waiting = limiter.acquire('a', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(HeavyReadAbandoned);
    release();
    expect(limiter.running('a')).toBe(0);
  });
});
