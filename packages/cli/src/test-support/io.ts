import type { CrawlSettings, RunScanOptions, ScanEvent } from '@linkaudit/engine';
import type { FinishedScan } from '../report.js';
import type { CliDeps, CliIo, CliStream } from '../run.js';

/** A stream that keeps what is written; a terminal when `isTTY` is set. */
export class FakeStream implements CliStream {
  readonly chunks: string[] = [];
  constructor(
    readonly isTTY = false,
    readonly columns = 100,
  ) {}

  write(chunk: string, callback?: (error?: Error | null) => void): boolean {
    this.chunks.push(chunk);
    callback?.();
    return true;
  }

  get text(): string {
    return this.chunks.join('');
  }
}

export function fakeIo(options: { tty?: boolean; env?: CliIo['env'] } = {}) {
  const stdout = new FakeStream(options.tty);
  const stderr = new FakeStream(options.tty);
  return { stdout, stderr, env: options.env ?? {} };
}

/** What the fake engine was asked to do. */
export interface ScanCall {
  settings: CrawlSettings;
  options: Omit<RunScanOptions, 'onEvent'>;
}

/** An engine that replays events and ends with `done`, or fails with `error`. */
export function fakeEngine(
  events: readonly ScanEvent[],
  end: FinishedScan | Error,
): CliDeps & { calls: ScanCall[] } {
  const calls: ScanCall[] = [];
  let time = 0;
  return {
    calls,
    now: () => (time += 1000),
    runScan(settings, { onEvent, ...options }) {
      calls.push({ settings, options });
      for (const event of events) onEvent(event);
      if (end instanceof Error) return Promise.reject(end);
      onEvent(end);
      return Promise.resolve(end);
    },
  };
}
