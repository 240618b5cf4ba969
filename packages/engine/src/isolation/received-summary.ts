import type { DoneEvent, ProgressEvent, ScanEvent, StopCause } from '../events.js';

/**
 * What the API's process knows of a scan whose process ended without `done` (killed after a
 * cancel, out of memory, crashed): the counts of the events it received, for the `done` it then
 * makes up. The last progress event gives the unique counts, which only the engine kept.
 */
export class ReceivedSummary {
  private readonly startedAt = Date.now();
  private progress: ProgressEvent | undefined;
  private pages = 0;
  private links = 0;
  private brokenLinks = 0;
  private certificateProblems = 0;

  constructor(private readonly startUrl: string) {}

  add(event: ScanEvent): void {
    switch (event.type) {
      case 'progress':
        this.progress = event;
        break;
      case 'page':
        this.pages++;
        break;
      case 'link':
        this.links++;
        if (event.check.state === 'broken') this.brokenLinks++;
        break;
      case 'certificate':
        if (!event.valid || event.expiresSoon) this.certificateProblems++;
        break;
      default:
        break;
    }
  }

  /** The `done` of a scan that ended for `cause`; `error` says why when it failed. */
  done(cause: StopCause, error?: string): DoneEvent {
    return {
      type: 'done',
      stoppedBy: cause,
      ...(error ? { error } : {}),
      summary: {
        startUrl: this.startUrl,
        pages: Math.max(this.pages, this.progress?.pages ?? 0),
        uniqueLinks: this.progress?.processed ?? 0,
        totalLinks: Math.max(this.links, this.progress?.links ?? 0),
        brokenLinks: this.brokenLinks,
        uniqueBrokenLinks: this.progress?.broken ?? 0,
        uniqueUnverifiedLinks: 0,
        reasons: {},
        durationMs: Date.now() - this.startedAt,
        brokenAnchors: 0,
        duplicateAnchors: 0,
        fattestPages: 0,
        pageSizeBuckets: [0, 0, 0, 0, 0, 0],
        fileTypes: [],
        certificateProblems: this.certificateProblems,
      },
    };
  }
}
