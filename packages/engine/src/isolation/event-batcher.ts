import { RoomListeners, type Backpressure } from '../backpressure.js';
import type { ScanEvent } from '../events.js';
import {
  batchesInFlight,
  batchWaitMs,
  eventsPerBatch,
  heldEventsLimit,
} from './isolation-protocol.js';

/** Sends one batch; calls `sent` once it is written to the channel. */
export type SendBatch = (events: ScanEvent[], sent: () => void) => void;

/**
 * Gathers a scan's events into batches, in order: a batch goes when it is full, when its first
 * event has waited batchWaitMs, or at once after `done` (the scan's last event) — but only while
 * fewer than batchesInFlight batches wait for the receiver's acknowledgement. Events held meanwhile
 * make it full (a Backpressure for the crawl) past heldEventsLimit.
 */
export class EventBatcher implements Backpressure {
  private waiting: ScanEvent[] = [];
  private unacknowledged = 0;
  /** The first waiting event has waited long enough: a partial batch may go. */
  private due = false;
  /** The scan is ending (`done`, or flush): everything goes as soon as the receiver allows. */
  private ending = false;
  private timer: NodeJS.Timeout | undefined;
  private lastSend: Promise<void> = Promise.resolve();
  private readonly room = new RoomListeners();
  private flushed: Array<() => void> = [];

  constructor(private readonly send: SendBatch) {}

  add(event: ScanEvent): void {
    this.waiting.push(event);
    if (event.type === 'done') this.ending = true;
    this.pump();
    if (this.waiting.length > 0 && !this.due) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.due = true;
        this.pump();
      }, batchWaitMs);
    }
  }

  /** The receiver has taken a batch: the next may go. */
  acknowledge(): void {
    const wasFull = this.isFull();
    this.unacknowledged = Math.max(0, this.unacknowledged - 1);
    this.pump();
    if (wasFull && !this.isFull()) this.room.notify();
  }

  isFull(): boolean {
    return this.waiting.length >= heldEventsLimit;
  }

  onRoom(resume: () => void): void {
    this.room.add(resume);
  }

  /** Sends everything (as acknowledgements allow); resolves once all of it is written. */
  flush(): Promise<void> {
    this.ending = true;
    return new Promise((resolve) => {
      this.flushed.push(resolve);
      this.pump();
    });
  }

  private pump(): void {
    while (this.unacknowledged < batchesInFlight && this.ready()) {
      const events = this.waiting.splice(0, eventsPerBatch);
      this.unacknowledged++;
      this.lastSend = new Promise((resolve) => this.send(events, resolve));
    }
    if (this.waiting.length > 0) return;
    this.due = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const written = this.lastSend;
    for (const resolve of this.flushed.splice(0)) void written.then(resolve);
  }

  private ready(): boolean {
    const size = this.waiting.length;
    return size >= eventsPerBatch || (size > 0 && (this.due || this.ending));
  }
}
