import type { ChildProcess } from 'node:child_process';
import type { Backpressure } from '../backpressure.js';
import type { CrawlSettings } from '../crawl-settings.js';
import type { DoneEvent, ScanEvent, StopCause } from '../events.js';
import { scanFailureMessages } from '@linkaudit/core';
import type { IsolatedEngineOptions } from './isolated-options.js';
import {
  batchesInFlight,
  eventsPerBatch,
  type FromScanProcess,
  type ToScanProcess,
} from './isolation-protocol.js';
import { ReceivedSummary } from './received-summary.js';
import { takeScanProcess } from './scan-processes.js';

export interface RunIsolatedScanOptions extends IsolatedEngineOptions {
  /** The scan process's JavaScript heap cap in MB; a scan that needs more fails. Default 1024. */
  memoryLimitMb?: number;
  /** Stops the scan (status Cancelled) within a second, however busy it is. */
  signal?: AbortSignal;
  /** Receives every event in order, `done` last; it must not block (queue slow work elsewhere). */
  onEvent: (event: ScanEvent) => void;
  /**
   * While it is full, the scan's process is not told it may send more (each batch it sends
   * waits for an acknowledgement beyond the first batchesInFlight), and its crawl waits.
   */
  backpressure?: Backpressure;
}

export const isolationDefaults = { memoryLimitMb: 1024 } as const;

/** The most events an isolated scan sends that its consumer, while full, has not yet let through. */
export const unacknowledgedEventsLimit = batchesInFlight * eventsPerBatch;

/** After a stop, how long the scan's process has to send `done` before it is killed (its own
 * grace for requests under way is 800 ms, but they end at once on a stop; 1 s is the promise). */
const stopGraceMs = 700;
/** After `done`, how long it has to exit by itself. */
const exitGraceMs = 1000;
/** Past the scan's own time limit, when a process that has not ended by itself is stopped. */
const deadlineSlackMs = 5000;
/** setTimeout's longest delay (about 24 days); longer ones would fire at once. */
const longestTimerMs = 2 ** 31 - 1;

/** V8's last words when a heap reaches its cap (it then aborts the process). */
const outOfMemory = /JavaScript heap out of memory|Reached heap limit/;

/**
 * Runs a scan as `runScan` does (same events in the same order, resolves with `done`, never
 * rejects for scan problems) but in a process of its own, with a memory cap: the scan can neither
 * stall the caller's event loop nor keep its memory, which the system gets back when the process
 * exits. A stop kills the process if it has not finished within 700 ms; a process that runs out
 * of memory or dies gives a failed `done` with what was received until then.
 */
export async function runIsolatedScan(
  settings: CrawlSettings,
  options: RunIsolatedScanOptions,
): Promise<DoneEvent> {
  return new IsolatedScan(settings, options).run();
}

/** One scan in its own process, from fork to exit. */
class IsolatedScan {
  private readonly received: ReceivedSummary;
  private readonly memoryLimitMb: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private done: DoneEvent | undefined;
  /** Why the scan failed, as its process or onEvent said. */
  private failure: string | undefined;
  /** Set once the scan is told to stop (a cancel, or its deadline). */
  private stopCause: 'cancelled' | 'timeout' | undefined;
  private killed = false;
  private stderrTail = '';
  /** Batches received and not yet acknowledged (held while backpressure says full). */
  private unacknowledged = 0;

  constructor(
    private readonly settings: CrawlSettings,
    private readonly options: RunIsolatedScanOptions,
  ) {
    this.received = new ReceivedSummary(settings.url);
    this.memoryLimitMb = options.memoryLimitMb ?? isolationDefaults.memoryLimitMb;
  }

  run(): Promise<DoneEvent> {
    let child: ChildProcess;
    try {
      child = takeScanProcess(this.memoryLimitMb);
    } catch (error) {
      this.failure = scanFailureMessages.processNotStarted((error as Error).message);
      return Promise.resolve(this.ending(null, null));
    }
    return new Promise((resolve) => {
      const onAbort = () => this.stop(child, 'cancelled');
      child.on('message', (message: FromScanProcess) => this.receive(child, message));
      child.stderr?.setEncoding('utf8').on('data', (text: string) => this.diagnose(text));
      child.on('error', (error) => {
        if (child.pid === undefined)
          this.failure ??= scanFailureMessages.processNotStarted(error.message);
      });
      child.once('close', (code, signal) => {
        for (const timer of this.timers) clearTimeout(timer);
        this.options.signal?.removeEventListener('abort', onAbort);
        resolve(this.done && !this.failure ? this.done : this.ending(code, signal));
      });
      this.options.backpressure?.onRoom(() => this.acknowledge(child));
      const {
        memoryLimitMb: _cap,
        signal,
        onEvent: _onEvent,
        backpressure: _backpressure,
        ...engineOptions
      } = this.options;
      try {
        tell(child, { type: 'start', settings: this.settings, options: engineOptions });
      } catch (error) {
        // Options that cannot be cloned (a function where data belongs): nothing can start.
        this.failure = scanFailureMessages.engineError((error as Error).message);
        this.kill(child);
        return;
      }
      if (signal?.aborted) this.stop(child, 'cancelled');
      else signal?.addEventListener('abort', onAbort, { once: true });
      const deadline = this.settings.timeoutAfter * 3_600_000 + deadlineSlackMs;
      this.later(Math.min(deadline, longestTimerMs), () => this.stop(child, 'timeout'));
    });
  }

  private receive(child: ChildProcess, message: FromScanProcess): void {
    if (message.type === 'failed') {
      this.failure ??= message.error;
      return;
    }
    for (const received of message.events) {
      if (this.failure) return;
      const event = this.asStopped(received);
      this.received.add(event);
      if (event.type === 'done') {
        this.done = event;
        this.later(exitGraceMs, () => this.kill(child));
      }
      this.forward(event, child);
    }
    this.unacknowledged++;
    this.acknowledge(child);
  }

  /**
   * A scan stopped at its deadline says it was cancelled (the stop is all its process was told):
   * it timed out. Its own time limit usually ends it first, but a process that started late (a
   * loaded machine, at nice +10) can still be running when the deadline here comes.
   */
  private asStopped(event: ScanEvent): ScanEvent {
    if (event.type !== 'done' || this.stopCause !== 'timeout' || event.stoppedBy !== 'cancelled')
      return event;
    return { ...event, stoppedBy: 'timeout' };
  }

  /** Lets the scan's process send on, batch by batch, while the consumer has room. */
  private acknowledge(child: ChildProcess): void {
    while (this.unacknowledged > 0 && !this.options.backpressure?.isFull()) {
      this.unacknowledged--;
      tell(child, { type: 'ack' });
    }
  }

  /** Hands an event on; an onEvent that throws fails the scan, as it would in runScan. */
  private forward(event: ScanEvent, child: ChildProcess): void {
    try {
      this.options.onEvent(event);
    } catch (error) {
      this.failure = scanFailureMessages.engineError((error as Error).message);
      this.kill(child);
    }
  }

  /** Asks the scan to stop, and kills its process if it has not sent `done` in time. */
  private stop(child: ChildProcess, cause: 'cancelled' | 'timeout'): void {
    if (this.done || this.stopCause || child.exitCode !== null) return;
    this.stopCause = cause;
    tell(child, { type: 'stop' });
    this.later(stopGraceMs, () => this.kill(child));
  }

  private kill(child: ChildProcess): void {
    if (child.exitCode !== null || child.signalCode !== null) return;
    this.killed = true;
    child.kill('SIGKILL');
  }

  /** The process's error output goes on to ours; its end is kept to tell why it died. */
  private diagnose(text: string): void {
    process.stderr.write(text);
    this.stderrTail = (this.stderrTail + text).slice(-4096);
  }

  /** The `done` of a process that ended without sending one (or after a failure). */
  private ending(code: number | null, signal: NodeJS.Signals | null): DoneEvent {
    const [cause, error] = this.endingCause(code, signal);
    const done = this.received.done(cause, error);
    try {
      this.options.onEvent(done);
    } catch {
      // The caller's own failure: it still gets the outcome, as the resolved value.
    }
    return done;
  }

  private endingCause(code: number | null, signal: NodeJS.Signals | null): [StopCause, string?] {
    if (this.failure) return ['error', this.failure];
    if (this.stopCause && this.killed) return [this.stopCause];
    if (outOfMemory.test(this.stderrTail))
      return ['error', scanFailureMessages.memoryLimit(this.memoryLimitMb)];
    if (this.stopCause) return [this.stopCause];
    return ['error', scanFailureMessages.processEnded(signal ?? `exit code ${code}`)];
  }

  private later(ms: number, action: () => void): void {
    this.timers.push(setTimeout(action, ms));
  }
}

/** Sends a message if the process still listens (a dead one is handled when it closes). */
function tell(child: ChildProcess, message: ToScanProcess): void {
  if (child.connected) child.send(message, () => undefined);
}
