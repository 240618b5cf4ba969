/**
 * The engine's sentences for a scan that ended in failure for a reason of its own making
 * (DoneEvent.error), shown to users as they are.
 */
export const scanFailureMessages = {
  /** An isolated scan's process reached its memory cap (runIsolatedScan's memoryLimitMb). */
  memoryLimit: (megabytes: number) =>
    `The scan used more than ${megabytes} MB of memory and was stopped`,
  /** An isolated scan's process ended without finishing: `how` is its exit code or signal. */
  processEnded: (how: string) => `The scan stopped unexpectedly: its process ended (${how})`,
  /** An isolated scan's process could not be started (no memory, too many processes…). */
  processNotStarted: (reason: string) => `The scan could not be started: ${reason}`,
} as const;
