import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PdfAbandoned, streamPdf, type PdfWriter } from './pdf-stream.js';

const ROWS = 6000;

/** Writes ROWS lines of text (Helvetica, uncompressed: ~1 MB), awaiting flow() every 10 rows. */
function rowWriter(progress: { rows: number; outcome?: unknown }) {
  return async ({ doc, flow }: PdfWriter) => {
    doc.addPage();
    try {
      for (let row = 0; row < ROWS; row += 1) {
        doc.text(`row ${row}: https://example.com/some/long/path/${row}?with=query#and-fragment`);
        progress.rows += 1;
        if (row % 10 === 0) await flow();
      }
      progress.outcome = 'done';
    } catch (error) {
      progress.outcome = error;
      throw error;
    }
  };
}

describe('streamed PDF', () => {
  it('pauses the writer while the client takes nothing, and finishes once it reads on', async () => {
    const progress = { rows: 0 };
    const chunks = streamPdf({ autoFirstPage: false, compress: false }, rowWriter(progress));
    const iterator = chunks[Symbol.asyncIterator]();
    const first = (await iterator.next()).value as Buffer;
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
    // Nothing read: the writer stops at the high-water mark, well before the end (sampled until
    // it stands still, however busy the machine), and stays there.
    let seen = -1;
    await expect
      .poll(
        async () => {
          const before = progress.rows;
          await wait(300);
          seen = progress.rows;
          return seen === before;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(seen).toBeLessThan(ROWS);
    await wait(300);
    expect(progress.rows).toBe(seen);
    // Reading on lets it finish: a whole document.
    const rest: Buffer[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      rest.push(next.value);
    }
    expect(progress.rows).toBe(ROWS);
    expect(Buffer.concat(rest).toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('stops the writer (no more rows read) when the client goes away', async () => {
    const progress: { rows: number; outcome?: unknown } = { rows: 0 };
    const chunks = streamPdf({ autoFirstPage: false, compress: false }, rowWriter(progress));
    for await (const chunk of chunks) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    await expect.poll(() => progress.outcome).toBeInstanceOf(PdfAbandoned);
    expect(progress.rows).toBeLessThan(ROWS);
  });
});
