// EventBatcher: a scan's events go in order, in batches, and never more than batchesInFlight
// batches ahead of the receiver's acknowledgements; events held beyond that make it full.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScanEvent } from '../events.js';
import { EventBatcher } from './event-batcher.js';
import { batchesInFlight, eventsPerBatch, heldEventsLimit } from './isolation-protocol.js';

function progress(processed: number): ScanEvent {
  return { type: 'progress', queued: 0, processed, pages: 0, links: 0, broken: 0, elapsedMs: 0 };
}

const done: ScanEvent = {
  type: 'done',
  summary: {} as Extract<ScanEvent, { type: 'done' }>['summary'],
};

function recordingBatcher() {
  const batches: ScanEvent[][] = [];
  const batcher = new EventBatcher((events, sent) => {
    batches.push(events);
    sent();
  });
  return { batches, batcher };
}

afterEach(() => vi.useRealTimers());

describe('EventBatcher', () => {
  it('sends no more than batchesInFlight unacknowledged batches, then holds and is full', () => {
    const { batches, batcher } = recordingBatcher();
    const resumed = vi.fn();
    batcher.onRoom(resumed);
    const total = (batchesInFlight + 3) * eventsPerBatch;
    for (let index = 0; index < total; index++) batcher.add(progress(index));
    expect(batches).toHaveLength(batchesInFlight);
    expect(batcher.isFull()).toBe(true);
    batcher.acknowledge();
    expect(batches).toHaveLength(batchesInFlight + 1);
    batcher.acknowledge();
    expect(batches).toHaveLength(batchesInFlight + 2);
    expect(batcher.isFull()).toBe(false);
    expect(resumed).toHaveBeenCalledTimes(1);
    const sent = batches.flat().map((event) => (event.type === 'progress' ? event.processed : -1));
    expect(sent).toEqual([...sent.keys()]);
    expect(heldEventsLimit).toBeGreaterThanOrEqual(eventsPerBatch);
  });

  it('sends a partial batch after batchWaitMs, and everything on flush as acknowledgements come', async () => {
    vi.useFakeTimers();
    const { batches, batcher } = recordingBatcher();
    batcher.add(progress(0));
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(30);
    expect(batches).toEqual([[progress(0)]]);
    for (let index = 1; index <= 3 * eventsPerBatch; index++) batcher.add(progress(index));
    batcher.add(done);
    let flushed = false;
    void batcher.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toBe(false);
    for (let acks = 0; acks < 4; acks++) batcher.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toBe(true);
    expect(batches.flat()).toHaveLength(3 * eventsPerBatch + 2);
    expect(batches.flat().at(-1)).toEqual(done);
  });
});
