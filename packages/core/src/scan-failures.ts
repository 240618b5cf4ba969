/**
 * Why a scan ended Failed (issue 37): the one catalogue of the sentences the engine and the
 * server write to a scan's `logMessage`, which the API answers with the scan, its report summary
 * and its broken-links summary, and which the web app shows in the interface language where a
 * failed scan is shown (the scan list's expanded row, the report). The start page's own failure
 * (`startPageFailure`, with the request's reason) is in request-failures.ts beside those reasons.
 */
export const scanFailureMessages = {
  /** The engine's own error (a bug of ours), with its message. */
  engineError: (message: string) => `Engine error: ${message}`,
  /** The scan's results could not be written to the database. */
  resultsNotSaved: 'Engine Exception: the results could not be saved.',
  /** Every worker that took the scan stopped holding it (crashed, killed, lost its lease). */
  workerLost: (attempts: number) =>
    `The scan stopped ${attempts} times without finishing (worker lost).`,
  /** The start address (or an exclusion) cannot be used as the engine reads it. */
  invalidStart: (url: string) => `Not a valid http(s) address to scan: "${url}"`,
  /** An isolated scan's process reached its memory cap (runIsolatedScan's memoryLimitMb). */
  memoryLimit: (megabytes: number) =>
    `The scan used more than ${megabytes} MB of memory and was stopped`,
  /** An isolated scan's process ended without finishing: `how` is its exit code or signal. */
  processEnded: (how: string) => `The scan stopped unexpectedly: its process ended (${how})`,
  /** An isolated scan's process could not be started (no memory, too many processes…). */
  processNotStarted: (reason: string) => `The scan could not be started: ${reason}`,
} as const;

export const scanFailurePatterns = {
  engineError: /^Engine error: (.+)$/s,
  workerLost: /^The scan stopped (\d+) times without finishing \(worker lost\)\.$/,
  invalidStart: /^Not a valid http\(s\) address to scan: "(.*)"$/s,
  memoryLimit: /^The scan used more than (\d+) MB of memory and was stopped$/,
  processEnded: /^The scan stopped unexpectedly: its process ended \((.+)\)$/,
  processNotStarted: /^The scan could not be started: (.+)$/s,
} as const;
