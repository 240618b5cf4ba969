/**
 * Reads whose answer many clients ask for at once, computed once: requests with the same key
 * while one is being computed share it, and answers that cannot change any more (a finished
 * scan's summary figures, keyed by its completion) are kept, the most recently used first.
 *
 * Why: a report summary runs about eight statements over millions of rows; a hundred readers of
 * one big scan opening it together put a hundred copies of them on the two report threads, and
 * every page read of every user waited behind them.
 */
export class SharedReads<T> {
  readonly #inFlight = new Map<string, Promise<T>>();
  /** Insertion order is recency: a hit is moved to the end, the first one is dropped when full. */
  readonly #kept = new Map<string, T>();

  constructor(private readonly capacity: number) {}

  /** The kept answer of `key`, if any (it becomes the most recently used). */
  kept(key: string): T | undefined {
    const value = this.#kept.get(key);
    if (value === undefined) return undefined;
    this.#kept.delete(key);
    this.#kept.set(key, value);
    return value;
  }

  /**
   * The answer of `key`: kept, being computed (joined), or computed now. `keep` says whether it
   * can be kept once computed (it will not change); a failed computation is never kept.
   */
  read(key: string, keep: boolean, compute: () => Promise<T>): Promise<T> {
    const kept = this.kept(key);
    if (kept !== undefined) return Promise.resolve(kept);
    const running = this.#inFlight.get(key);
    if (running) return running;
    const computing = compute().then(
      (value) => {
        this.#inFlight.delete(key);
        if (keep) this.#keep(key, value);
        return value;
      },
      (error: unknown) => {
        this.#inFlight.delete(key);
        throw error;
      },
    );
    this.#inFlight.set(key, computing);
    return computing;
  }

  #keep(key: string, value: T): void {
    this.#kept.set(key, value);
    if (this.#kept.size > this.capacity) {
      const oldest = this.#kept.keys().next().value;
      if (oldest !== undefined) this.#kept.delete(oldest);
    }
  }
}
