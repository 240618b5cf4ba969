/**
 * How a consumer of a scan's events that stores them slower than the crawl finds them (a
 * database) slows the crawl down instead of holding an ever-growing backlog: while it is full,
 * the crawl starts no new fetch (those under way still finish and report), and it resumes when
 * the consumer calls back. The bound is therefore soft by what the fetches under way report.
 */
export interface Backpressure {
  /** True while the consumer holds as many events as it means to: no new fetch starts. */
  isFull(): boolean;
  /** `resume` is called each time the consumer, having been full, has room again. */
  onRoom(resume: () => void): void;
}

/** The listeners of a Backpressure, called when room comes back. */
export class RoomListeners {
  private readonly listeners: Array<() => void> = [];

  add(listener: () => void): void {
    this.listeners.push(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
