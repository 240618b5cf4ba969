/**
 * Work handed over and not finished yet, bounded in items and in size: the producer awaits
 * `room()` after each item and goes on at once unless a bound is passed.
 */
export class Backlog {
  private items = 0;
  private size = 0;
  /** Woken whenever an item is done; each checks its own condition again. */
  private waiting: (() => void)[] = [];

  constructor(private readonly limits: { items: number; size: number }) {}

  add(size: number): void {
    this.items++;
    this.size += size;
  }

  done(size: number): void {
    this.items--;
    this.size -= size;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** Whether the backlog is past its bounds, or past this fraction of them. */
  over(fraction = 1): boolean {
    return this.items > this.limits.items * fraction || this.size > this.limits.size * fraction;
  }

  /** Resolves once the backlog is within its bounds. */
  async room(): Promise<void> {
    while (this.over()) await this.change();
  }

  /** Resolves once every item is done. */
  async empty(): Promise<void> {
    while (this.items > 0) await this.change();
  }

  private change(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
