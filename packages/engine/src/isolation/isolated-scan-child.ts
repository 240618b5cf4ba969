// The process of one isolated scan (runIsolatedScan forks it): it waits for `start`, runs the
// scan with the engine options rebuilt, sends the events back in batches and exits after `done`.
// A `stop` cancels the scan; the API's process going away ends this one at once. Each batch waits
// for the API's `ack` beyond the first few, and the crawl waits while too many events are held.
import { scanFailureMessages } from '@linkaudit/core';
import type { ScanEvent } from '../events.js';
import { runScan } from '../scan.js';
import { EventBatcher } from './event-batcher.js';
import { engineOptionsFrom } from './isolated-options.js';
import type { FromScanProcess, ToScanProcess } from './isolation-protocol.js';

const stop = new AbortController();
let batcher: EventBatcher | undefined;

function send(message: FromScanProcess, sent: () => void = () => undefined): void {
  if (!process.send) throw new Error('the scan process must be started by runIsolatedScan');
  process.send(message, undefined, {}, (error) => (error ? process.exit(1) : sent()));
}

async function start(message: Extract<ToScanProcess, { type: 'start' }>): Promise<void> {
  const events = new EventBatcher((batch: ScanEvent[], sent) =>
    send({ type: 'events', events: batch }, sent),
  );
  batcher = events;
  try {
    // A function that cannot be made (the address policy!) fails the scan: it never runs without.
    const options = await engineOptionsFrom(message.options);
    await runScan(message.settings, {
      ...options,
      signal: stop.signal,
      onEvent: (event) => events.add(event),
      backpressure: events,
    });
  } catch (error) {
    // runScan never rejects for scan problems: this is an engine fault. What it found still goes.
    await events.flush();
    send({ type: 'failed', error: scanFailureMessages.engineError((error as Error).message) }, () =>
      process.exit(1),
    );
    return;
  }
  // A stopped scan reports every link it left unchecked (10^5 on a huge page). Held back by a
  // full results writer, those could only run into the kill 700 ms after the stop: the process
  // ends now instead, and the API's process summarizes the scan from what it received, as after
  // that kill. One holding fewer sends them and its own `done`.
  if (stop.signal.aborted && events.isFull()) process.exit(0);
  await events.flush();
  process.exit(0);
}

process.on('message', (message: ToScanProcess) => {
  if (message.type === 'stop') stop.abort();
  else if (message.type === 'ack') batcher?.acknowledge();
  else void start(message);
});
// Nobody is left to read the results: stop at once rather than crawl for no one.
process.on('disconnect', () => process.exit(0));
