import { EventEmitter } from 'node:events';
import type { ScanUpdate } from '@linkaudit/core';

/**
 * Scan updates inside one process (workers → hub). Across processes on PostgreSQL the same
 * updates travel by LISTEN/NOTIFY (realtime module), which re-emits them here.
 */
export class ScanUpdates {
  readonly #emitter = new EventEmitter().setMaxListeners(0);
  /** Sends an update to other processes (PostgreSQL NOTIFY); unset on SQLite. */
  relay: ((update: ScanUpdate) => void) | undefined;

  publish(update: ScanUpdate): void {
    this.#emitter.emit('update', update);
    this.relay?.(update);
  }

  /** An update that came from another process: only this process's listeners hear it. */
  deliver(update: ScanUpdate): void {
    this.#emitter.emit('update', update);
  }

  subscribe(listener: (update: ScanUpdate) => void): () => void {
    this.#emitter.on('update', listener);
    return () => this.#emitter.off('update', listener);
  }
}
