import type { ProgressEvent } from '@linkaudit/engine';
import { describe, expect, it } from 'vitest';
import { createProgressLine, formatElapsed, formatProgress } from './progress.js';

function progress(overrides: Partial<ProgressEvent> = {}): ProgressEvent {
  return {
    type: 'progress',
    queued: 25,
    processed: 300,
    pages: 12,
    links: 340,
    broken: 3,
    elapsedMs: 42_000,
    ...overrides,
  };
}

function terminal(columns = 120) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY: true, columns, write: (chunk: string) => chunks.push(chunk) } };
}

describe('the progress line', () => {
  it('reads pages, links, broken, queued and elapsed time', () => {
    expect(formatProgress(progress())).toBe(
      'Scanning: 12 pages, 340 links, 3 broken, 25 queued, 0:42',
    );
  });

  it('redraws in place at most about four times a second, and clears itself', () => {
    const { chunks, stream } = terminal();
    let time = 0;
    const line = createProgressLine(stream, { enabled: true, now: () => time });
    line.update(progress({ pages: 1 }));
    time = 100;
    line.update(progress({ pages: 2 }));
    time = 240;
    line.update(progress({ pages: 3 }));
    line.clear();
    expect(chunks).toEqual([
      '\r\u001b[KScanning: 1 pages, 340 links, 3 broken, 25 queued, 0:42',
      '\r\u001b[KScanning: 3 pages, 340 links, 3 broken, 25 queued, 0:42',
      '\r\u001b[K',
    ]);
  });

  it('fits the terminal width', () => {
    const { chunks, stream } = terminal(20);
    createProgressLine(stream, { enabled: true }).update(progress());
    expect(chunks).toEqual(['\r\u001b[KScanning: 12 pages,']);
  });

  it('writes nothing when disabled (not a terminal, or --quiet)', () => {
    const { chunks, stream } = terminal();
    const line = createProgressLine(stream, { enabled: false });
    line.update(progress());
    line.clear();
    expect(chunks).toEqual([]);
  });

  it('clears nothing when nothing was drawn', () => {
    const { chunks, stream } = terminal();
    createProgressLine(stream, { enabled: true }).clear();
    expect(chunks).toEqual([]);
  });

  it.each([
    [0, '0:00'],
    [59_999, '0:59'],
    [61_000, '1:01'],
    [3_599_000, '59:59'],
    [3_661_000, '1:01:01'],
  ])('elapsed %d ms reads %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });
});
