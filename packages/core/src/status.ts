/** Scan status codes of SPEC §4. 12–14 only ever appear as answers to a scan submission. */
export const ScanStatus = {
  Complete: 1,
  Cancelled: 2,
  Failed: 3,
  Timeout: 4,
  InProgress: 5,
  Queued: 6,
  Paused: 7,
  Cancelling: 8,
  RuleChecking: 9,
  OverMaxLinks: 10,
  Finalizing: 11,
  MonthlyLimitReached: 12,
  LowCreditWarning: 13,
  ScheduledScanCreated: 14,
} as const;
export type ScanStatus = (typeof ScanStatus)[keyof typeof ScanStatus];

const finishedStatuses: ReadonlySet<number> = new Set([
  ScanStatus.Complete,
  ScanStatus.Cancelled,
  ScanStatus.Failed,
  ScanStatus.Timeout,
  ScanStatus.OverMaxLinks,
]);

/** Finished means codes 1 to 4 or 10 (SPEC §4). */
export function isFinishedStatus(status: number): boolean {
  return finishedStatuses.has(status);
}

/** The cancel button (and the cancel call) is refused while cancelling and once finished. */
export function canCancel(status: number): boolean {
  return status !== ScanStatus.Cancelling && !isFinishedStatus(status);
}

/** Scan type of SPEC §4; the same numbers as scan depth. */
export const ScanType = { SinglePage: 1, Folder: 2, Site: 3 } as const;
export type ScanType = (typeof ScanType)[keyof typeof ScanType];
