import { getDocument, GlobalWorkerOptions, TextLayer, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useState } from 'react';

// pdf.js parses in a worker of its own, served from our origin like the app's other files.
GlobalWorkerOptions.workerSrc = workerUrl;

/** The PDF opened by pdf.js (null while it opens), closed when the bytes change or on leaving. */
export function usePdfDocument(bytes: ArrayBuffer | undefined): {
  document: PDFDocumentProxy | null;
  error: unknown;
} {
  const [document, setDocument] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!bytes) return;
    // pdf.js takes the buffer over; a copy keeps the cached download usable for the next open.
    const task = getDocument({ data: new Uint8Array(bytes.slice(0)) });
    task.promise.then(
      (pdf) => setDocument(pdf),
      (reason: unknown) => setError(reason),
    );
    return () => {
      setDocument(null);
      // Ends the worker's document whether it had opened or was still opening.
      void task.destroy();
    };
  }, [bytes]);
  return { document, error };
}

/**
 * Draws page `pageNumber` of `document` into `canvas` at `scale` (sharp on high-density screens)
 * with its text laid over it in `textLayer` (selectable, found by the browser's search and read
 * by screen readers); a newer draw cancels one still running.
 */
export function usePdfPage(
  document: PDFDocumentProxy | null,
  pageNumber: number,
  scale: number,
  canvas: HTMLCanvasElement | null,
  textLayer: HTMLDivElement | null,
): { drawn: number | null } {
  const [drawn, setDrawn] = useState<number | null>(null);
  useEffect(() => {
    if (!document || !canvas || !textLayer) return;
    let cancelled = false;
    let cancel = () => {
      cancelled = true;
    };
    void document.getPage(pageNumber).then((page) => {
      if (cancelled) return;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const task = page.render({
        canvas,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      textLayer.replaceChildren();
      const text = new TextLayer({
        textContentSource: page.streamTextContent(),
        container: textLayer,
        viewport,
      });
      cancel = () => {
        cancelled = true;
        task.cancel();
        text.cancel();
      };
      Promise.all([task.promise, text.render()]).then(
        () => {
          if (!cancelled) setDrawn(pageNumber);
        },
        () => {
          // Cancelled by a newer draw (page or zoom changed): that draw reports instead.
        },
      );
    });
    return () => cancel();
  }, [document, pageNumber, scale, canvas, textLayer]);
  return { drawn };
}
