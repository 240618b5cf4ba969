import PDFDocument from 'pdfkit';

/** Bytes of finished PDF waiting for the client before the writer pauses (backpressure). */
const HIGH_WATER_BYTES = 256 * 1024;

/** The client went away: the writer stops at its next `flow()` and reads no more rows. */
export class PdfAbandoned extends Error {
  constructor() {
    super('the PDF download was abandoned');
  }
}

/**
 * What the writer of a streamed PDF gets: the document, and `flow()` to await between rows so it
 * waits while the client has not taken what was written (and stops once the client has gone).
 */
export interface PdfWriter {
  doc: PDFKit.PDFDocument;
  flow: () => Promise<void>;
}

/**
 * A PDF written by `write` as an async iterable of chunks: pdfkit hands out each page's objects
 * when the next page begins, and `write` pauses in `flow()` while more than HIGH_WATER_BYTES wait
 * for the consumer, so memory stays bounded whatever the number of rows. pdfkit has no
 * backpressure of its own (it pushes), hence this queue between it and the response.
 */
export function streamPdf(
  options: PDFKit.PDFDocumentOptions,
  write: (writer: PdfWriter) => Promise<void>,
): AsyncIterable<Buffer> {
  return {
    [Symbol.asyncIterator]: () => pdfChunks(options, write),
  };
}

/** pdfkit's embedded fonts, as far as forgetLayouts needs them (private to pdfkit). */
interface FontsOfDocument {
  _fontFamilies?: Record<string, { layoutCache?: Record<string, unknown> }>;
}

/**
 * pdfkit keeps the layout of every word it measured for the document's life, and a URL is a
 * word: with 20,000 links that grew the heap by ~300 MB. Dropped at each flow() (every few dozen
 * rows), memory stays flat while the words repeated on the next rows are cached again (turning
 * the cache off instead made a 20,000-link PDF ten times slower).
 */
function forgetLayouts(doc: PDFKit.PDFDocument): void {
  const families = (doc as unknown as FontsOfDocument)._fontFamilies ?? {};
  for (const font of Object.values(families)) {
    if (font.layoutCache) font.layoutCache = Object.create(null) as Record<string, unknown>;
  }
}

async function* pdfChunks(
  options: PDFKit.PDFDocumentOptions,
  write: (writer: PdfWriter) => Promise<void>,
): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let queued = 0;
  let ended = false;
  // An object, so the closures' writes are seen by the loop's checks (no narrowing to null).
  const outcome: { failed: Error | null } = { failed: null };
  let abandoned = false;
  let wakeReader: (() => void) | null = null;
  let wakeWriter: (() => void) | null = null;
  const wake = (which: 'reader' | 'writer') => {
    const resume = which === 'reader' ? wakeReader : wakeWriter;
    if (which === 'reader') wakeReader = null;
    else wakeWriter = null;
    resume?.();
  };

  const doc = new PDFDocument({ ...options, bufferPages: false });
  doc.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    queued += chunk.length;
    wake('reader');
  });
  doc.on('end', () => {
    ended = true;
    wake('reader');
  });
  // Written and not yet taken: our queue, and what pdfkit pushed that its stream has not yet
  // emitted (it emits on process.nextTick, which a writer awaiting settled promises never lets
  // run: counting only the queue, the writer would never pause).
  const waiting = () => queued + doc.readableLength;
  const flow = async () => {
    forgetLayouts(doc);
    // Let the server's other work run between batches of rows (drawing is CPU work).
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (waiting() > HIGH_WATER_BYTES && !abandoned) {
      await new Promise<void>((resolve) => (wakeWriter = resolve));
    }
    if (abandoned) throw new PdfAbandoned();
  };
  write({ doc, flow }).then(
    () => doc.end(),
    (error: unknown) => {
      outcome.failed = error instanceof Error ? error : new Error(String(error));
      ended = true;
      wake('reader');
    },
  );

  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        queued -= chunk.length;
        if (waiting() <= HIGH_WATER_BYTES) wake('writer');
        yield chunk;
        continue;
      }
      if (outcome.failed) throw outcome.failed;
      if (ended) return;
      await new Promise<void>((resolve) => (wakeReader = resolve));
    }
  } finally {
    // Ended early (client gone, or an error): the writer stops at its next flow().
    abandoned = true;
    wake('writer');
  }
}
