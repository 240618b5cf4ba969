import type { ProgressEvent } from '@linkaudit/engine';

/** The part of a terminal stream the progress line needs. */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressLine {
  update(event: ProgressEvent): void;
  /** Removes the line, leaving the cursor at the start of an empty line. */
  clear(): void;
}

export interface ProgressOptions {
  enabled: boolean;
  now?: () => number;
  /** The shortest time between two redraws (default 240 ms: about 4 a second, with room for timer jitter). */
  minIntervalMs?: number;
}

const eraseLine = '\r\u001b[K';

/**
 * One line on a terminal, redrawn in place. Nothing at all when the stream is not a terminal (a CI
 * log would fill with lines) or with --quiet.
 */
export function createProgressLine(stream: ProgressStream, options: ProgressOptions): ProgressLine {
  if (!options.enabled) return { update: () => undefined, clear: () => undefined };
  const now = options.now ?? Date.now;
  const minIntervalMs = options.minIntervalMs ?? 240;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(event) {
      const time = now();
      if (time - lastDraw < minIntervalMs) return;
      lastDraw = time;
      drawn = true;
      // One column short of the width: writing the last column makes some terminals wrap.
      const width = stream.columns && stream.columns > 1 ? stream.columns - 1 : Infinity;
      stream.write(`${eraseLine}${formatProgress(event).slice(0, width)}`);
    },
    clear() {
      if (drawn) stream.write(eraseLine);
      drawn = false;
    },
  };
}

/** "Scanning: 12 pages, 340 links, 3 broken, 25 queued, 0:42". */
export function formatProgress(event: ProgressEvent): string {
  const parts = [
    `${event.pages} pages`,
    `${event.links} links`,
    `${event.broken} broken`,
    `${event.queued} queued`,
    formatElapsed(event.elapsedMs),
  ];
  return `Scanning: ${parts.join(', ')}`;
}

/** m:ss, or h:mm:ss from an hour on. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const pad = (value: number): string => String(value).padStart(2, '0');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${pad(seconds % 60)}`;
  return `${Math.floor(minutes / 60)}:${pad(minutes % 60)}:${pad(seconds % 60)}`;
}
