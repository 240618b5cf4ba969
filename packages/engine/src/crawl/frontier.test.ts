import { describe, expect, it } from 'vitest';
import { Frontier } from './frontier.js';
import type { Target } from './targets.js';

function target(id: number, host: string): Target {
  const url = `http://${host}/p${id}`;
  return {
    id,
    url,
    host,
    internal: true,
    depth: 1,
    crawl: false,
    readAnchors: false,
    resource: false,
    state: 'queued',
  } as Target;
}

describe('Frontier.drain', () => {
  it('hands back every waiting target of a queue of a million (a cancelled scan of a huge page)', () => {
    const frontier = new Frontier(() => 8);
    const count = 1_000_000;
    for (let id = 0; id < count; id++) frontier.push(target(id, 'big.test'));
    frontier.push(target(count, 'other.test'));
    const taken = frontier.take();

    const rest = frontier.drain();

    expect(rest).toHaveLength(count);
    expect(rest.map((t) => t.id)).not.toContain(taken?.id);
    expect(frontier.size).toBe(0);
    expect(frontier.take()).toBeUndefined();
  });

  it('hands back only what was not taken yet, in queue order per host', () => {
    const frontier = new Frontier(() => 8);
    for (let id = 0; id < 5; id++) frontier.push(target(id, 'a.test'));
    expect(frontier.take()?.id).toBe(0);
    expect(frontier.take()?.id).toBe(1);

    expect(frontier.drain().map((t) => t.id)).toEqual([2, 3, 4]);
  });
});
